import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { type Pool, withTransaction } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// Any fixed 64-bit key; only our start-up takes it.
const MIGRATION_LOCK_KEY = 7_215_440_031;

export interface Migration {
  version: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(path.join(dir, f), 'utf8') }));
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Apply pending migrations and the LangGraph checkpoint tables, once, whatever the number of
 * processes starting at the same moment. The lock is a *transaction* advisory lock, which a
 * transaction pooler keeps on one server connection for the whole transaction (a session lock
 * would not survive PgBouncer/Supabase's pooler). Everything else in the product uses rows.
 *
 * `afterMigrate` runs inside the same locked transaction (the demo seed uses it, so it is applied
 * once as well).
 */
export async function migrate(
  pool: Pool,
  opts: { logger?: Logger; afterMigrate?: (client: import('../core/pg-pool.js').PoolClient) => Promise<void> } = {},
): Promise<MigrateResult> {
  const log = opts.logger;
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of listMigrations()) {
      if (done.has(m.version)) {
        result.alreadyApplied.push(m.version);
        continue;
      }
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
      result.applied.push(m.version);
      log?.info({ migration: m.version }, 'applied migration');
    }
    // The checkpointer's own migrations run on another pooled connection while we hold the lock,
    // so concurrent start-ups never race inside PostgresSaver.setup().
    await new PostgresSaver(pool).setup();
    if (opts.afterMigrate) await opts.afterMigrate(client);
    return result;
  });
}
