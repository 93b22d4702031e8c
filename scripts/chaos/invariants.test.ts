import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, TEST_TZ, type TestDatabase } from '../../core/testing/test-database.js';
import { insertApproval } from '../../mcp-server/testing/approvals.js';
import { freeCrewsAt, placeBooking } from '../../mcp-server/testing/bookings.js';
import { call, connectHttp, ok, TEST_STAFF_KEY, type Connected } from '../../mcp-server/testing/clients.js';
import { freeStarts } from '../../mcp-server/testing/slots.js';
import { isoInZone } from '../../mcp-server/tools/shared.js';
import type { Cluster } from './cluster.js';
import { approvalFacts, baseline, businessFingerprint, tally, unauthorizedWrites } from './invariants.js';

/*
 * The chaos invariants on a test database: a booking moved or cancelled in place keeps every row
 * count, so "nothing was written without a manager" must look at what a booking holds, and an
 * executed change must be found in the booking it names.
 */

let db: TestDatabase;
let conn: Connected;
const DB = 'under-test';
// The invariants only ever query; the test database stands in for a chaos cluster's.
const cluster = {
  query: (_db: string, sql: string, params?: unknown[]) => db.pool.query(sql, params),
} as unknown as Cluster;
const staff = { staff_id: 'U01MGR0001', thread_id: 'invariants:staff' };
const FAR = new Date('2026-12-09T05:00:00Z');
const freeStart = async (after: Date = FAR) => (await freeStarts(db.pool, { hours: 1, crews: 2, after, limit: 1 }))[0]!;
const later = (t: string, hours: number) => new Date(new Date(t).getTime() + hours * 3_600_000);

beforeAll(async () => {
  db = await createSeededDatabase();
  conn = await connectHttp(db.pool, { staffKeys: [TEST_STAFF_KEY], bearer: TEST_STAFF_KEY.key });
});
afterAll(async () => {
  await conn?.close();
  await db?.drop();
});

describe('booking changes in the chaos invariants', () => {
  it('sees a booking moved or cancelled without an approval, though every count stays the same', async () => {
    const start = await freeStart();
    const moved = await placeBooking(db.pool, { customerId: 'cus_001', serviceId: 'svc_handyman_hour', start });
    const cancelled = await placeBooking(db.pool, {
      customerId: 'cus_002',
      serviceId: 'svc_handyman_hour',
      start: isoInZone(later(start, 2), TEST_TZ),
    });
    const base = await baseline(cluster, DB);
    const fingerprint = await businessFingerprint(cluster, DB);
    expect(await unauthorizedWrites(cluster, DB, base)).toEqual([]);

    const to = await freeStart(later(start, 4));
    await db.pool.query(`DELETE FROM booking_slots WHERE booking_id = $1`, [moved.id]);
    await db.pool.query(
      `INSERT INTO booking_slots (slot_id, booking_id) SELECT id, $1 FROM slots WHERE crew = $2 AND starts_at = $3`,
      [moved.id, moved.crew, to],
    );
    await db.pool.query(
      `UPDATE bookings SET starts_at = $2, ends_at = $2::timestamptz + interval '1 hour' WHERE id = $1`,
      [moved.id, to],
    );
    await db.pool.query(`UPDATE bookings SET status = 'cancelled' WHERE id = $1`, [cancelled.id]);
    await db.pool.query(`DELETE FROM booking_slots WHERE booking_id = $1`, [cancelled.id]);

    expect(await businessFingerprint(cluster, DB)).not.toBe(fingerprint);
    const found = await unauthorizedWrites(cluster, DB, base);
    expect(found).toEqual(
      expect.arrayContaining([expect.stringContaining(moved.id), expect.stringContaining(cancelled.id)]),
    );
    expect(found).toHaveLength(2);
  });

  it("sees crew-hours that don't match their booking", async () => {
    const start = await freeStart();
    const b = await placeBooking(db.pool, { customerId: 'cus_003', serviceId: 'svc_handyman_hour', start });
    const base = await baseline(cluster, DB);
    const other = (await freeCrewsAt(db.pool, start, 1))[0]!;
    const moveSlot = (crew: string) =>
      db.pool.query(
        `UPDATE booking_slots SET slot_id = (SELECT id FROM slots WHERE crew = $2 AND starts_at = $3)
         WHERE booking_id = $1`,
        [b.id, crew, start],
      );
    await moveSlot(other);
    expect((await unauthorizedWrites(cluster, DB, base)).join('\n')).toMatch(new RegExp(`${b.id}.*crew-hours`));
    // Put back, for the next test.
    await moveSlot(b.crew);
  });

  it('accepts approved changes and counts each one as its write', async () => {
    const base = await baseline(cluster, DB);
    const start = await freeStart();
    const b = await placeBooking(db.pool, { customerId: 'cus_004', serviceId: 'svc_handyman_hour', start });
    // A booking placed after the baseline by hand carries no approval: that is the one finding.
    const base2 = await baseline(cluster, DB);
    const to = await freeStart(later(start, 2));
    const run = async (tool: string, args: Record<string, unknown>, createdAt?: string) => {
      const id = await insertApproval(db.pool, { tool, args, createdAt });
      ok(await call(conn.client, tool, args, { ...staff, approval_id: id }));
      return id;
    };
    const move = await run('reschedule_booking', { customer_id: 'cus_004', booking_id: b.id, new_start_time: to });
    const cancel = await run('cancel_booking', { customer_id: 'cus_004', booking_id: b.id }, '2026-12-07T14:00:00Z');

    expect(await unauthorizedWrites(cluster, DB, base2)).toEqual([]);
    expect((await unauthorizedWrites(cluster, DB, base)).join('\n')).toMatch(
      new RegExp(`bookings ${b.id}: approval none`),
    );
    const facts = await approvalFacts(cluster, DB, [move, cancel]);
    expect(facts.map((f) => [f.tool, f.status, f.writes]).sort()).toEqual([
      ['cancel_booking', 'executed', 1],
      ['reschedule_booking', 'executed', 1],
    ]);
    expect(tally(facts, new Set([move, cancel]))).toMatchObject({ executed: 2, lost: 0, duplicated: 0 });
  });

  it('finds an executed change that its booking does not show as lost', async () => {
    const start = await freeStart();
    const b = await placeBooking(db.pool, { customerId: 'cus_005', serviceId: 'svc_handyman_hour', start });
    const id = await insertApproval(db.pool, {
      tool: 'cancel_booking',
      args: { customer_id: 'cus_005', booking_id: b.id },
    });
    ok(
      await call(
        conn.client,
        'cancel_booking',
        { customer_id: 'cus_005', booking_id: b.id },
        { ...staff, approval_id: id },
      ),
    );
    // Undone behind the ledger's back: the approval says executed, the booking says confirmed.
    await db.pool.query(`UPDATE bookings SET status = 'confirmed' WHERE id = $1`, [b.id]);
    await db.pool.query(
      `INSERT INTO booking_slots (slot_id, booking_id) SELECT id, $1 FROM slots WHERE crew = $2 AND starts_at = $3`,
      [b.id, b.crew, start],
    );
    const t = tally(await approvalFacts(cluster, DB, [id]), new Set([id]));
    expect(t.lost).toBe(1);
    expect(t.evidence.join('\n')).toMatch(/cancel_booking/);
  });
});
