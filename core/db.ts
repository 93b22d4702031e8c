import pg from 'pg';
import type { Logger } from './logger.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// int8 (bigint, count(*)) as number: our ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

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
  pool.on('error', (err) => opts.logger?.error({ err }, 'idle database client error'));
  return pool;
}

/** Run `fn` in one transaction; rolls back on any throw. Works behind transaction poolers. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
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
