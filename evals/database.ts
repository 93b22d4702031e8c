import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { Clock } from '../core/clock.js';
import { connectClient, createPool } from '../core/pg-pool.js';
import { startEmbeddedPostgres } from '../core/embedded-postgres.js';
import type { TestDatabase } from '../core/testing/test-database.js';
import { migrate } from '../schema/migrate.js';
import { seedDemo } from '../schema/seed/index.js';

/**
 * Databases for an eval run outside vitest (the CLI): a fresh database on a server we are given
 * (DATABASE_URL), or on a throw-away embedded Postgres. Inside vitest, `createSeededDatabase` does
 * the same on the test server.
 */

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await connectClient(adminUrl);
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A new database on the server of `adminUrl`, migrated and seeded at `clock`; `drop()` removes it. */
export async function createEvalDatabase(
  adminUrl: string,
  opts: { clock: Clock; timeZone: string },
): Promise<TestDatabase> {
  const name = `eval_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, { max: 20, applicationName: 'support-agent-eval' });
  const drop = async () => {
    await pool.end().catch(() => undefined);
    await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => undefined);
  };
  try {
    await migrate(pool, {
      afterMigrate: (client) => seedDemo(client, { clock: opts.clock, timeZone: opts.timeZone }).then(() => undefined),
    });
  } catch (err) {
    await drop();
    throw err;
  }
  return { url, pool, name, drop };
}

export interface EvalServer {
  adminUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL's server when given, otherwise a throw-away embedded Postgres in a temp folder. */
export async function openEvalServer(databaseUrl?: string): Promise<EvalServer> {
  if (databaseUrl) return { adminUrl: databaseUrl, embedded: false, stop: async () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'support-agent-eval-pg-'));
  try {
    const handle = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
    return {
      adminUrl: handle.url,
      embedded: true,
      stop: async () => {
        await handle.stop().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
