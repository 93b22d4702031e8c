import { describe, expect, it } from 'vitest';
import { runChaos } from './run.js';

/*
 * The short chaos suite inside `npm test`: its own disposable Postgres (never the test server),
 * three real `npm start` workers, PgBouncer when installable, the HTTP tool server. The full suite
 * is `npm run test:chaos`. A failure prints the table with its evidence.
 */
describe('chaos suite (short)', () => {
  it('loses, duplicates and crashes nothing, and refuses every attack', async () => {
    const seed = 20261207;
    const run = await runChaos({ short: true, seed, log: () => undefined });
    process.stdout.write(run.markdown);
    expect(run.ok, run.markdown).toBe(true);
    // About 210 s on an idle 2-core machine; a timeout for a hang, not a speed check.
  }, 900_000);
});
