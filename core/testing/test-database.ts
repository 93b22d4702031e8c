import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectClient, createPool, type Pool } from '../pg-pool.js';
import { fixedClock, type Clock } from '../clock.js';
import { migrate } from '../../schema/migrate.js';
import { seedDemo } from '../../schema/seed/index.js';

import { TEST_NOW, TEST_TZ } from './constants.js';

export { TEST_NOW, TEST_TZ } from './constants.js';

export interface TestDatabase {
  url: string;
  pool: Pool;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, empty database on the test server. `drop()` removes it (call in afterAll). */
export async function createEmptyDatabase(prefix = 't'): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await connectClient(adminUrl);
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, { max: 20 });
  return {
    url,
    pool,
    name,
    drop: async () => {
      await pool.end().catch(() => undefined);
      const c = await connectClient(adminUrl);
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A fresh database with the schema applied and the demo business seeded at `clock`. */
export async function createSeededDatabase(
  opts: { clock?: Clock; timeZone?: string; seed?: boolean } = {},
): Promise<TestDatabase> {
  const db = await createEmptyDatabase();
  const clock = opts.clock ?? fixedClock(TEST_NOW);
  await migrate(db.pool, {
    afterMigrate:
      opts.seed === false
        ? undefined
        : async (client) => {
            await seedDemo(client, { clock, timeZone: opts.timeZone ?? TEST_TZ });
          },
  });
  return db;
}
