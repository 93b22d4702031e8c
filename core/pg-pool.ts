import './node-navigator.js';
import pg from 'pg';
import { safeError, type Logger } from './logger.js';
import { isStopping } from './shutdown.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// int8 (bigint, count(*)) as number: our ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

// A server stopping or restarting closes every connection at once: one line for the burst.
const REPEAT_WINDOW_MS = 2000;
let lastLoss: { code: unknown; at: number } | undefined;

/**
 * A lost connection is an event, not a bug: one line with its code and message, no stack and
 * nothing of the client. Repeats of the same code within a moment are one event; while this
 * process is itself stopping it is expected and not reported.
 */
function connectionLost(log: Logger | undefined, err: unknown, applicationName: string | undefined): void {
  const { code, message } = safeError(err);
  const now = Date.now();
  if (lastLoss && lastLoss.code === code && now - lastLoss.at < REPEAT_WINDOW_MS) return;
  lastLoss = { code, at: now };
  // Ctrl-C reaches the embedded Postgres and this process at the same instant, and its closed
  // connections may be seen first: decided a moment later, once our own signal handler has run
  // (or as the process exits, whichever comes first).
  const report = () => {
    pendingReports.delete(report);
    if (isStopping()) log?.debug({ code }, 'database connection closed while stopping');
    else log?.warn({ err: { code, message }, application_name: applicationName }, 'database connection lost');
  };
  pendingReports.add(report);
  setTimeout(report, 300).unref();
  if (pendingReports.size === 1) process.once('exit', flushReports);
}

const pendingReports = new Set<() => void>();
function flushReports(): void {
  for (const r of [...pendingReports]) r();
}

/**
 * One pool per process. SSL settings come from the URL itself (`?sslmode=require`, as Supabase
 * gives them), so no code path differs between a local server and a hosted one.
 */
export function createPool(url: string, opts: { max?: number; logger?: Logger; applicationName?: string } = {}): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'support-agent',
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  const log = opts.logger;
  // pg-pool takes its own 'error' listener off a client while it is checked out, and an 'error'
  // event nobody listens to ends the process: a backend terminated mid-transaction (a Postgres
  // restart, a pooler dropping its server side) would take the worker down. This listener stays
  // for the client's whole life; the query in flight is rejected on its own, and its caller
  // handles that like any failed query.
  pool.on('connect', (client) => {
    client.on('error', (err) => connectionLost(log, err, pool.options.application_name));
  });
  // The same error, re-emitted by the pool for an idle client it has just discarded: already
  // logged above. Without a listener here the pool's own emit would be the unhandled one.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A standalone client (admin work, a lock holder in a test) with the same lifelong 'error'
 * listener as pooled ones: a bare `new pg.Client` whose backend goes away ends the process.
 */
export async function connectClient(
  url: string,
  opts: { logger?: Logger; applicationName?: string } = {},
): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: opts.applicationName ?? 'support-agent',
    connectionTimeoutMillis: 10_000,
  });
  client.on('error', (err) => connectionLost(opts.logger, err, opts.applicationName));
  await client.connect();
  return client;
}

/** Run `fn` in one transaction; rolls back on any throw. Works behind transaction poolers. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A ROLLBACK that fails means the connection is gone: the caller gets the original error, and
    // the client is destroyed rather than handed to the next caller.
    await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken = rollbackErr));
    throw err;
  } finally {
    client.release(broken);
  }
}

export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string })?.code === '23505';

/** Redact the password for logs. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}

// SQLSTATE class 08 (connection exception) and the shutdown codes a terminated or restarting
// backend sends; the rest are what a socket or a pooler says when the server went away.
const CONNECTION_SQLSTATES = /^(08|57P0[123])/;
const CONNECTION_ERRNOS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'not queryable',
    'timeout exceeded when trying to connect',
    'terminating connection',
    'server closed the connection',
    'the database system is (starting up|shutting down)',
  ].join('|'),
  'i',
);

/** A lost or refused database connection (the operation failed; the process is fine). */
export function isConnectionError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const { code, message, cause } = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (CONNECTION_SQLSTATES.test(code) || CONNECTION_ERRNOS.has(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  return isConnectionError(cause, depth + 1);
}

/** A connection lost because this process is stopping (Ctrl-C stops the embedded Postgres too): not a fault. */
export const lostWhileStopping = (err: unknown): boolean => isStopping() && isConnectionError(err);

/**
 * lostWhileStopping, for a caller about to report the error: Ctrl-C reaches the embedded Postgres in
 * the same instant, and its connections can end before this process's SIGINT handler has run, so a
 * lost connection waits up to `waitMs` for that handler before it counts as a fault.
 */
export async function lostWhileStoppingSoon(err: unknown, waitMs = 250): Promise<boolean> {
  if (!isConnectionError(err)) return false;
  const until = Date.now() + waitMs;
  while (!isStopping() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return isStopping();
}
