import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createEmptyDatabase,
  createSeededDatabase,
  TEST_NOW,
  TEST_TZ,
  type TestDatabase,
} from '../core/testing/test-database.js';
import { fixedClock } from '../core/clock.js';
import { listMigrations, migrate } from './migrate.js';
import { seedDemo } from './seed/index.js';
import { CUSTOMERS } from './seed/customers.js';
import { isOpen } from './business/calendar.js';
import { APPROVAL_STATUSES } from './approval-status.js';
import { childEnv } from '../core/config.js';

const dbs: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
});

async function tableNames(db: TestDatabase): Promise<string[]> {
  const r = await db.pool.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
  );
  return r.rows.map((x) => x.t);
}

function runMigrateProcess(url: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], {
      env: childEnv({ DATABASE_URL: url, LOG_LEVEL: 'warn', FIXED_NOW: TEST_NOW }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('migrations', () => {
  it('apply from empty, create every table and the checkpoint tables, and record each version', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    const result = await migrate(db.pool);
    expect(result.applied).toEqual(listMigrations().map((m) => m.version));
    const tables = await tableNames(db);
    for (const t of [
      'customers',
      'slack_identities',
      'services',
      'slots',
      'bookings',
      'booking_slots',
      'tickets',
      'kb_articles',
      'email_outbox',
      'approvals',
      'audit_log',
      'slack_events',
      'conversations',
      'conversation_messages',
      'thread_leases',
      'rate_limits',
      'schema_migrations',
      'checkpoints',
      'checkpoint_blobs',
      'checkpoint_writes',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('are idempotent when run again', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    await migrate(db.pool);
    const again = await migrate(db.pool);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBe(listMigrations().length);
  });

  it('three processes starting at once against one empty database all come up; ' +
    'each migration is applied once', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    const results = await Promise.all([1, 2, 3].map(() => runMigrateProcess(db.url)));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const versions = await db.pool.query(`SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version`);
    expect(versions.rows.map((r) => r.n)).toEqual(listMigrations().map(() => 1));
    const seeds = await db.pool.query(`SELECT count(*)::int AS n FROM app_meta WHERE key = 'demo_seed'`);
    expect(seeds.rows[0].n).toBe(1);
    const customers = await db.pool.query(`SELECT count(*)::int AS n FROM customers`);
    expect(customers.rows[0].n).toBeGreaterThanOrEqual(25);
  }, 60_000);

  it('allow exactly the approval statuses the code knows', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    await migrate(db.pool);
    const r = await db.pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'approvals'::regclass AND contype = 'c'`,
    );
    const inSql = [...r.rows[0]!.def.matchAll(/'([a-z]+)'::text/g)].map((m) => m[1]).sort();
    expect(inSql).toEqual([...APPROVAL_STATUSES].sort());
  });

  it('keep the audit log append-only', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    await migrate(db.pool);
    await db.pool.query(`INSERT INTO audit_log (at, actor, action) VALUES (now(), 'test', 'probe')`);
    await expect(db.pool.query(`UPDATE audit_log SET actor = 'x'`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
  });
});

describe('demo seed', () => {
  it('is idempotent: seeding again adds nothing', async () => {
    const db = await createSeededDatabase();
    dbs.push(db);
    const count = async () =>
      (
        await db.pool.query(
          `SELECT (SELECT count(*) FROM customers) c, (SELECT count(*) FROM kb_articles) k,
                  (SELECT count(*) FROM services) s, (SELECT count(*) FROM slots) sl,
                  (SELECT count(*) FROM bookings) b, (SELECT count(*) FROM slack_identities) si`,
        )
      ).rows[0];
    const before = await count();
    await seedDemo(db.pool, { clock: fixedClock(TEST_NOW), timeZone: TEST_TZ });
    expect(await count()).toEqual(before);
    expect(before.c).toBeGreaterThanOrEqual(25);
    expect(before.k).toBeGreaterThanOrEqual(40);
    expect(before.s).toBeGreaterThanOrEqual(6);
    expect(before.b).toBeGreaterThan(0);
  });

  it("rebuilds the help centre's vocabulary once per seeding, not once per article", async () => {
    // The vocabulary trigger is per statement: an article per statement rebuilt it 60 times, 2.6 s
    // of Postgres per seeded database (every eval and test database is one).
    const db = await createEmptyDatabase();
    dbs.push(db);
    await migrate(db.pool);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await seedDemo(client, { clock: fixedClock(TEST_NOW), timeZone: TEST_TZ });
      const r = await client.query<{ inserted: number; words: number }>(
        `SELECT (SELECT n_tup_ins::int FROM pg_stat_xact_user_tables WHERE relname = 'kb_vocabulary') AS inserted,
                (SELECT count(*)::int FROM kb_vocabulary) AS words`,
      );
      await client.query('COMMIT');
      expect(r.rows[0]!.words).toBeGreaterThan(100);
      expect(r.rows[0]!.inserted).toBe(r.rows[0]!.words);
      // Seeding again (every start does) changes no article, so it rebuilds nothing.
      await client.query('BEGIN');
      await seedDemo(client, { clock: fixedClock(TEST_NOW), timeZone: TEST_TZ });
      const again = await client.query<{ rebuilt: number }>(
        `SELECT count(*)::int AS rebuilt FROM kb_vocabulary WHERE xmin = pg_current_xact_id()::xid`,
      );
      await client.query('COMMIT');
      expect(again.rows[0]!.rebuilt).toBe(0);
    } finally {
      client.release();
    }
  });

  it('lays out two weeks of slots in business hours, local time, some already booked', async () => {
    const db = await createSeededDatabase();
    dbs.push(db);
    const r = await db.pool.query<{ first: Date; last: Date; hours: number[]; booked: number; total: number }>(
      `SELECT min(starts_at) AS first, max(starts_at) AS last,
              array_agg(DISTINCT extract(hour FROM starts_at AT TIME ZONE $1)::int
                        ORDER BY extract(hour FROM starts_at AT TIME ZONE $1)::int) AS hours,
              (SELECT count(*) FROM booking_slots)::int AS booked, count(*)::int AS total
       FROM slots`,
      [TEST_TZ],
    );
    const row = r.rows[0]!;
    expect(row.first.getTime()).toBeGreaterThan(new Date(TEST_NOW).getTime());
    expect(row.last.getTime() - row.first.getTime()).toBeGreaterThanOrEqual(12 * 86_400_000);
    expect(Math.min(...row.hours)).toBe(8);
    expect(Math.max(...row.hours)).toBe(17);
    expect(row.booked / row.total).toBeGreaterThan(0.1);
    expect(row.booked / row.total).toBeLessThan(0.6);
    const sundays = await db.pool.query(
      `SELECT count(*)::int AS n FROM slots WHERE extract(dow FROM starts_at AT TIME ZONE $1) = 0`,
      [TEST_TZ],
    );
    expect(sundays.rows[0].n).toBe(0);
  });
});

describe('own calendars in the seed', () => {
  // Seeded on a Friday, two weeks on is Christmas Day; on a Saturday evening, two weeks on is a Saturday.
  it.each([TEST_NOW, '2026-12-11T15:00:00.000Z', '2026-12-12T23:30:00.000Z'])(
    'seeded at %s: every visit on an open hour, none dealt to those customers',
    async (now) => {
      const db = await createSeededDatabase({ clock: fixedClock(now) });
      dbs.push(db);
      const own = CUSTOMERS.filter((c) => c.visits);
      expect(own.length).toBeGreaterThan(0);
      const r = await db.pool.query<{ customer_id: string; starts_at: Date }>(
        `SELECT customer_id, starts_at FROM bookings WHERE customer_id = ANY($1::text[])`,
        [own.map((c) => c.id)],
      );
      for (const c of own) {
        expect(r.rows.filter((b) => b.customer_id === c.id).length, c.id).toBe(c.visits!.length);
      }
      for (const b of r.rows) {
        expect(isOpen(b.starts_at, TEST_TZ), `${b.customer_id} ${b.starts_at.toISOString()}`).toBe(true);
        expect(b.starts_at.getTime()).toBeGreaterThan(new Date(now).getTime());
      }
    },
  );
});

describe('double booking', () => {
  it('is impossible at the database level, even for two transactions racing', async () => {
    const db = await createSeededDatabase();
    dbs.push(db);
    const free = await db.pool.query<{ id: number; crew: string; starts_at: Date; ends_at: Date }>(
      `SELECT s.id, s.crew, s.starts_at, s.ends_at FROM slots s
       WHERE NOT EXISTS (SELECT 1 FROM booking_slots b WHERE b.slot_id = s.id) ORDER BY s.starts_at LIMIT 1`,
    );
    const slot = free.rows[0]!;
    const book = async (customer: string) => {
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        const b = await client.query<{ id: string }>(
          `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at)
           VALUES ($1, 'svc_standard_clean', $2, $3, $4) RETURNING id`,
          [customer, slot.crew, slot.starts_at, slot.ends_at],
        );
        await client.query(`INSERT INTO booking_slots (slot_id, booking_id) VALUES ($1, $2)`, [slot.id, b.rows[0]!.id]);
        await client.query('COMMIT');
        return 'ok';
      } catch (err) {
        await client.query('ROLLBACK');
        return (err as { code?: string }).code;
      } finally {
        client.release();
      }
    };
    const outcomes = await Promise.all([book('cus_001'), book('cus_002'), book('cus_003')]);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '23505')).toHaveLength(2);
  });
});
