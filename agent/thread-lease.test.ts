import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { ThreadLeases } from './thread-lease.js';

/*
 * The lease's own round trips carry what a run needs first and last: reads taken by the acquiring
 * statement, and a release that lets go only when no work is waiting (checked in the same
 * statement, so work that arrives just before is drained by the holder and work that arrives just
 * after finds the lease free).
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createSeededDatabase();
  await db.pool.query(`CREATE TABLE lease_test_work (thread_id text NOT NULL, n int NOT NULL)`);
});
afterAll(async () => {
  await db?.drop();
});

const waiting = `EXISTS (SELECT 1 FROM lease_test_work WHERE thread_id = $1)`;
const holderOf = async (threadId: string) =>
  (await db.pool.query(`SELECT holder FROM thread_leases WHERE thread_id = $1`, [threadId])).rows[0]?.holder;

describe('thread leases', () => {
  it('hands the reads of the acquiring statement to the run, and only one holder at a time', async () => {
    const a = new ThreadLeases(db.pool, 'worker-a');
    const b = new ThreadLeases(db.pool, 'worker-b');
    await db.pool.query(`INSERT INTO lease_test_work VALUES ('t:1', 7)`);
    const reads = await a.tryAcquire('t:1', { n: `(SELECT max(n) FROM lease_test_work WHERE thread_id = $1)` });
    expect(reads).toEqual({ n: 7 });
    expect(await b.tryAcquire('t:1', { n: `1` })).toBeUndefined();
    expect(await a.release('t:1')).toBe(true);
    expect(await holderOf('t:1')).toBeUndefined();
    await db.pool.query(`DELETE FROM lease_test_work`);
  });

  it('a release finds waiting work: the lease stays held; without work it is let go', async () => {
    const a = new ThreadLeases(db.pool, 'worker-a');
    expect(await a.tryAcquire('t:2')).toEqual({});
    await db.pool.query(`INSERT INTO lease_test_work VALUES ('t:2', 1)`);
    expect(await a.release('t:2', waiting)).toBe(false);
    expect(await holderOf('t:2')).toBe('worker-a');
    await db.pool.query(`DELETE FROM lease_test_work WHERE thread_id = 't:2'`);
    expect(await a.release('t:2', waiting)).toBe(true);
    expect(await holderOf('t:2')).toBeUndefined();
  });

  it('with a hold, work that arrives while the run goes on is drained before the lease is let go', async () => {
    const a = new ThreadLeases(db.pool, 'worker-a');
    const drained: number[] = [];
    const out = await a.with(
      't:3',
      async () => {
        await db.pool.query(`INSERT INTO lease_test_work VALUES ('t:3', 1)`);
        return 'ran';
      },
      1000,
      {
        hold: {
          sql: waiting,
          drain: async () => {
            // Still the holder while draining; draining one item lets the next arrive.
            expect(await holderOf('t:3')).toBe('worker-a');
            const r = await db.pool.query<{ n: number }>(
              `DELETE FROM lease_test_work WHERE thread_id = 't:3' RETURNING n`,
            );
            drained.push(...r.rows.map((x) => x.n));
            if (drained.length < 3)
              await db.pool.query(`INSERT INTO lease_test_work VALUES ('t:3', $1)`, [drained.length + 1]);
          },
          alongside: `marked AS (INSERT INTO lease_test_work (thread_id, n) SELECT 'released:' || $1, 0)`,
        },
      },
    );
    expect(out).toBe('ran');
    expect(drained).toEqual([1, 2, 3]);
    expect(await holderOf('t:3')).toBeUndefined();
    // The upkeep ran with each releasing statement: the three that found work and the one that let go.
    const marks = await db.pool.query(
      `SELECT count(*)::int AS n FROM lease_test_work WHERE thread_id = 'released:t:3'`,
    );
    expect(marks.rows[0].n).toBe(4);
  });

  it('a run that fails lets go of the lease without draining', async () => {
    const a = new ThreadLeases(db.pool, 'worker-a');
    await db.pool.query(`INSERT INTO lease_test_work VALUES ('t:4', 1)`);
    let drains = 0;
    await expect(
      a.with(
        't:4',
        async () => {
          throw new Error('boom');
        },
        1000,
        { hold: { sql: waiting, drain: async () => void drains++ } },
      ),
    ).rejects.toThrow('boom');
    expect(drains).toBe(0);
    expect(await holderOf('t:4')).toBeUndefined();
  });
});
