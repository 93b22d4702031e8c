/**
 * Who may talk to the Streamable HTTP tool server, and from where: the bearer credential decides
 * the caller (and so the widest scope it can have), and Host/Origin are checked against DNS
 * rebinding. The SDK's own transport options for this are deprecated in favour of middleware and
 * match Host with its port; this is the port-agnostic rule of the SDK's `hostHeaderValidation`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ConfigError } from '../core/config.js';
import type { Caller } from './caller.js';

export interface StaffKey {
  name: string;
  key: string;
}

export interface HttpCredentials {
  /** The agent service's key (`MCP_API_KEY`). */
  apiKey?: string;
  /** Staff keys (`MCP_STAFF_KEYS`). */
  staffKeys?: readonly StaffKey[];
}

export type Authentication = { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'invalid' };

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Refuses credentials that would make two callers indistinguishable. */
export function credentialProblems(c: HttpCredentials): { variable: string; message: string }[] {
  const staff = c.staffKeys ?? [];
  const problems: { variable: string; message: string }[] = [];
  if (c.apiKey && staff.some((s) => s.key === c.apiKey)) {
    problems.push({
      variable: 'MCP_STAFF_KEYS',
      message: 'a staff key equals MCP_API_KEY: the agent would get staff scope',
    });
  }
  if (
    new Set(staff.map((s) => s.name)).size !== staff.length ||
    new Set(staff.map((s) => s.key)).size !== staff.length
  ) {
    problems.push({ variable: 'MCP_STAFF_KEYS', message: 'names and keys must be unique' });
  }
  return problems;
}

export const hasCredentials = (c: HttpCredentials): boolean => Boolean(c.apiKey) || (c.staffKeys?.length ?? 0) > 0;

/**
 * The caller of one request, from `Authorization: Bearer <key>` only. Every configured key is
 * compared (SHA-256 digests, constant time, no early exit), so timing says neither which key
 * nor how much of it matched. With no key configured, no credential is the unauthenticated caller;
 * a presented but unknown credential is refused either way, so a misconfigured client finds out.
 */
export function createAuthenticator(c: HttpCredentials): (req: IncomingMessage) => Authentication {
  const problems = credentialProblems(c);
  if (problems.length) throw new ConfigError(problems);
  const known: { caller: Caller; digest: Buffer }[] = [
    ...(c.apiKey ? [{ caller: { kind: 'agent' } as Caller, digest: digest(c.apiKey) }] : []),
    ...(c.staffKeys ?? []).map((s) => ({ caller: { kind: 'staff', name: s.name } as Caller, digest: digest(s.key) })),
  ];
  return (req) => {
    const header = req.headers.authorization?.trim();
    if (!header)
      return known.length ? { ok: false, reason: 'missing' } : { ok: true, caller: { kind: 'unauthenticated' } };
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) return { ok: false, reason: 'invalid' };
    const presented = digest(m[1]!.trim());
    let match: Caller | undefined;
    for (const k of known) if (timingSafeEqual(presented, k.digest) && !match) match = k.caller;
    return match ? { ok: true, caller: match } : { ok: false, reason: 'invalid' };
  };
}

const unbracket = (h: string) => h.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** localhost, 127.0.0.0/8, ::1 (also IPv4-mapped): reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = unbracket(host.trim());
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '']);

/** The one check `npm run mcp:http` refuses to start on: customer data beyond loopback with no credential. */
export function exposureProblems(host: string, c: HttpCredentials): { variable: string; message: string }[] {
  if (hasCredentials(c) || isLoopbackHost(host)) return [];
  return [
    {
      variable: 'MCP_API_KEY',
      message:
        `HOST=${host} is reachable beyond this machine and neither MCP_API_KEY nor MCP_STAFF_KEYS is set: ` +
        'set a key, or bind HOST=127.0.0.1',
    },
  ];
}

/** The host name of a Host header value or a configured entry, without port or brackets. */
function hostnameOf(value: string): string | undefined {
  try {
    return unbracket(new URL(`http://${value.trim()}`).hostname);
  } catch {
    return undefined;
  }
}

export interface RequestOriginPolicy {
  /** The address the server listens on: a specific one is an allowed Host too. */
  bindHost: string;
  /** Host names (any port) accepted besides loopback. */
  allowedHosts?: readonly string[];
  /** Exact origins accepted besides loopback pages. */
  allowedOrigins?: readonly string[];
}

/**
 * A rebinding page reaches us under its own name, so the Host header gives it away; a browser
 * page on another site announces itself in Origin. Non-browser clients send no Origin.
 * Returns why the request is refused, or undefined.
 */
export function createOriginGuard(policy: RequestOriginPolicy): (req: IncomingMessage) => string | undefined {
  const hosts = new Set((policy.allowedHosts ?? []).map(hostnameOf).filter((h): h is string => Boolean(h)));
  const bind = hostnameOf(policy.bindHost);
  if (bind && !WILDCARD_BINDS.has(bind)) hosts.add(bind);
  const origins = new Set(
    (policy.allowedOrigins ?? []).flatMap((o) => {
      try {
        return [new URL(o.trim()).origin];
      } catch {
        return [];
      }
    }),
  );
  return (req) => {
    const hostHeader = req.headers.host;
    const host = hostHeader ? hostnameOf(hostHeader) : undefined;
    if (!host || !(isLoopbackHost(host) || hosts.has(host)))
      return 'Host is not one this server answers to (MCP_ALLOWED_HOSTS).';
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return 'Origin is not allowed (MCP_ALLOWED_ORIGINS).';
    }
    if (parsed.origin === 'null' || !['http:', 'https:'].includes(parsed.protocol))
      return 'Origin is not allowed (MCP_ALLOWED_ORIGINS).';
    if (isLoopbackHost(parsed.hostname) || origins.has(parsed.origin)) return undefined;
    return 'Origin is not allowed (MCP_ALLOWED_ORIGINS).';
  };
}
