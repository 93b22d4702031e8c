/**
 * Node 21 added a global `navigator`; Node 20 has none. Without it, pg (lib/stream.js) asks
 * whether it runs on Cloudflare by constructing a `Response`, and that loads Node's whole fetch
 * implementation (undici) into a process that never fetches: about 6 MB of a tool server's idle
 * RSS (issue 12). Defined here as Node 21+ defines it, so every library sees what it sees there.
 * Imported before pg by whatever loads pg first (core/pg-pool.ts, and the checkpointer's module).
 */
import { availableParallelism } from 'node:os';

if (!('navigator' in globalThis)) {
  const navigator = Object.create(null, {
    hardwareConcurrency: { get: () => availableParallelism(), enumerable: true },
    // Read only when asked: resolving the default locale loads ICU data.
    language: { get: () => new Intl.DateTimeFormat().resolvedOptions().locale, enumerable: true },
    platform: { get: () => process.platform, enumerable: true },
    userAgent: { value: `Node.js/${process.versions.node.split('.')[0]}`, enumerable: true },
  });
  Object.defineProperty(globalThis, 'navigator', { value: navigator, configurable: true, writable: true });
}
