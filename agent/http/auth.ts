import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../../core/config.js';

/** `manager`: decisions and reads of customer data. `client`: POST /chat. */
export type Role = 'manager' | 'client';

/** Who a valid key says the caller is; `name` is what decisions record and what the limiter counts. */
export interface Identity {
  name: string;
  role: Role;
}

export type KeyConfig = Pick<Config, 'MANAGER_API_KEY' | 'MANAGER_API_KEYS' | 'API_KEY'>;

/** Every configured key with the identity it stands for. */
export function configuredKeys(c: KeyConfig): { key: string; identity: Identity }[] {
  const keys: { key: string; identity: Identity }[] = [];
  if (c.MANAGER_API_KEY) keys.push({ key: c.MANAGER_API_KEY, identity: { name: 'api:manager', role: 'manager' } });
  for (const entry of c.MANAGER_API_KEYS) {
    const at = entry.indexOf(':');
    keys.push({ key: entry.slice(at + 1), identity: { name: `api:${entry.slice(0, at)}`, role: 'manager' } });
  }
  if (c.API_KEY) keys.push({ key: c.API_KEY, identity: { name: 'api:client', role: 'client' } });
  return keys;
}

// Fixed-length digests make timingSafeEqual applicable to keys of any length, and the length of
// a configured key is not revealed by how long a comparison takes.
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class ApiKeys {
  private readonly keys: { digest: Buffer; identity: Identity }[];

  constructor(config: KeyConfig) {
    this.keys = configuredKeys(config).map((k) => ({ digest: digest(k.key), identity: k.identity }));
  }

  get hasManagerKeys(): boolean {
    return this.keys.some((k) => k.identity.role === 'manager');
  }

  get hasClientKey(): boolean {
    return this.keys.some((k) => k.identity.role === 'client');
  }

  /**
   * The identity of a presented key, or undefined. Every key is compared, so timing does not tell which one nearly
   * matched.
   */
  identify(token: string): Identity | undefined {
    const d = digest(token);
    let found: Identity | undefined;
    for (const k of this.keys) if (timingSafeEqual(d, k.digest) && !found) found = k.identity;
    return found;
  }
}

/**
 * The credential a request presents: undefined without an Authorization header; '' for a header
 * that is not `Bearer <token>` (presented, and wrong).
 */
export function presentedCredential(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? '';
}

/**
 * The client address as this server sees it. X-Forwarded-For is not trusted: any client can send
 * it, so keying on it would hand every caller a fresh bucket.
 */
export const clientAddress = (req: IncomingMessage): string => req.socket.remoteAddress ?? 'unknown';
