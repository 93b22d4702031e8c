import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { CHANGE_POLICY } from '../schema/business/change-policy.js';
import { approvalRow, insertApproval } from './testing/approvals.js';
import { bookingState, freeCrewsAt, placeBooking, slotKeys } from './testing/bookings.js';
import { call, connectHttp, ok, refused, TEST_STAFF_KEY, type Connected, type Outcome } from './testing/clients.js';
import { freeStarts } from './testing/slots.js';
import { businessSnapshot } from './testing/tables.js';
import { isoInZone } from './tools/shared.js';

/*
 * reschedule_booking and cancel_booking through a real MCP session (Streamable HTTP, staff key)
 * on a seeded database: the booking's crew-hours move or free up in the gate's transaction, every
 * refusal leaves the tables as they were, and a replayed or racing approval changes a booking once.
 */

const HOUR = 3_600_000;
/** Starts from here on are more than 24 hours after TEST_NOW: changes there are free. */
const FAR = new Date('2026-12-09T05:00:00Z');
/** Tomorrow 8:00 local, 23 hours after TEST_NOW: the only start inside the fee window. */
const SOON = '2026-12-08T08:00:00-05:00';
/** An approval made after the changes the earlier tests executed (at TEST_NOW, the fixed clock). */
const AFTER_EARLIER_CHANGES = TEST_NOW;

let db: TestDatabase;
let conn: Connected;
const staff = { staff_id: 'U01MGR0001', thread_id: 'booking-change:staff' };
const as = (customerId: string) => ({ customer_id: customerId, thread_id: `booking-change:${customerId}` });
const tool = (name: string, args: unknown, meta?: Record<string, unknown>) => call(conn.client, name, args, meta);
const approvedCall = async (
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> = staff,
  opts: { createdAt?: string; threadId?: string } = {},
) => {
  const id = await insertApproval(db.pool, { tool: name, args, ...opts });
  return { id, outcome: await tool(name, args, { ...meta, approval_id: id }) };
};
const at = (t: Date | string) => new Date(t).getTime();
const plus = (t: Date | string, hours: number) => isoInZone(new Date(at(t) + hours * HOUR), TEST_TZ);
/** A start where both crews are free for `hours`, at or after `after`. */
const freeStart = async (hours: number, after: Date | string = FAR) =>
  (await freeStarts(db.pool, { hours, crews: 2, after: new Date(at(after) - 1), limit: 1 }))[0]!;
const bookingTables = async () => {
  const s = await businessSnapshot(db.pool);
  return { bookings: s.bookings_md5, booking_slots: s.booking_slots_md5, n: s.bookings, slots: s.booking_slots };
};
type Booking = Record<string, unknown> & { id: string; starts_at: string; ends_at: string; crew: string };
type Alternative = { start_time: string; display: string };

beforeAll(async () => {
  db = await createSeededDatabase();
  conn = await connectHttp(db.pool, { staffKeys: [TEST_STAFF_KEY], bearer: TEST_STAFF_KEY.key });
});
afterAll(async () => {
  await conn?.close();
  await db?.drop();
});

describe('reschedule_booking', () => {
  it('moves the booking (same id): new crew-hours taken, old ones free and bookable by someone else', async () => {
    const from = await freeStart(2);
    const to = await freeStart(2, plus(from, 3));
    const mine = await placeBooking(db.pool, { customerId: 'cus_005', serviceId: 'svc_window_clean', start: from });
    await placeBooking(db.pool, { customerId: 'cus_006', serviceId: 'svc_window_clean', start: from });
    expect(await freeCrewsAt(db.pool, from, 2)).toEqual([]);
    const bookingsBefore = (await bookingTables()).n;

    const { id, outcome } = await approvedCall('reschedule_booking', {
      customer_id: 'cus_005',
      booking_id: mine.id,
      new_start_time: to,
    });
    const r = ok(outcome) as { booking: Booking; previous: Record<string, string>; fee: Record<string, unknown> };
    expect(r.booking).toMatchObject({
      id: mine.id,
      customer_id: 'cus_005',
      service_id: 'svc_window_clean',
      service_name: 'Interior Window Cleaning',
      price_cents: 12900,
      status: 'confirmed',
    });
    expect(at(r.booking.starts_at)).toBe(at(to));
    expect(at(r.booking.ends_at) - at(r.booking.starts_at)).toBe(2 * HOUR);
    expect(r.booking.starts_at).toBe(isoInZone(new Date(to), TEST_TZ));
    expect(r.previous).toMatchObject({ crew: mine.crew });
    expect(at(r.previous.starts_at!)).toBe(at(from));
    expect(r.fee).toMatchObject({ fee_cents: 0, rule: expect.stringMatching(/^free/) });
    expect(r.fee.notice_hours).toBeGreaterThan(24);

    const state = (await bookingState(db.pool, mine.id))!;
    expect(state).toMatchObject({ status: 'confirmed', crew: r.booking.crew });
    expect(state.slots).toEqual(slotKeys(state.crew, to, 2));
    expect((await bookingTables()).n).toBe(bookingsBefore);
    expect(
      (
        await db.pool.query(
          `SELECT count(*)::int AS n FROM bookings WHERE customer_id = 'cus_005' AND starts_at = $1`,
          [to],
        )
      ).rows[0].n,
    ).toBe(1);
    expect((await approvalRow(db.pool, id))!.status).toBe('executed');

    // The old crew-hours are free again: another customer can book exactly that time.
    expect(await freeCrewsAt(db.pool, from, 2)).toEqual([mine.crew]);
    const again = ok(
      (await approvedCall('book_slot', { customer_id: 'cus_007', service_id: 'svc_window_clean', start_time: from }))
        .outcome,
    ).booking as Booking;
    expect(again.crew).toBe(mine.crew);
  });

  it('refuses a taken time with the nearest free starts, changing nothing', async () => {
    const from = await freeStart(1);
    const mine = await placeBooking(db.pool, { customerId: 'cus_005', serviceId: 'svc_handyman_hour', start: from });
    const taken = await freeStart(1, plus(from, 2));
    await placeBooking(db.pool, { customerId: 'cus_006', serviceId: 'svc_handyman_hour', start: taken });
    await placeBooking(db.pool, { customerId: 'cus_007', serviceId: 'svc_handyman_hour', start: taken });
    const before = await bookingTables();

    const args = { customer_id: 'cus_005', booking_id: mine.id, new_start_time: taken };
    const { id, outcome } = await approvedCall('reschedule_booking', args);
    const err = refused(outcome);
    expect(err.code).toBe('slot_unavailable');
    const alts = err.details.alternatives as Alternative[];
    expect(alts.length).toBeGreaterThanOrEqual(1);
    expect(alts.length).toBeLessThanOrEqual(5);
    for (const a of alts) {
      expect(a.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00-0[45]:00$/);
      expect(at(a.start_time)).not.toBe(at(taken));
      // Its own time is no alternative: it is already there.
      expect(at(a.start_time)).not.toBe(at(from));
      expect(at(a.start_time)).toBeGreaterThan(at(TEST_NOW));
    }
    expect(err.message).toContain(alts[0]!.display);
    expect(await bookingTables()).toEqual(before);
    expect((await approvalRow(db.pool, id))!.status).toBe('failed');

    // An alternative really is free for this booking.
    const rehearsal = await tool(
      'reschedule_booking',
      { ...args, new_start_time: alts[0]!.start_time },
      { ...staff, dry_run: true },
    );
    expect(at((ok(rehearsal).booking as Booking).starts_at)).toBe(at(alts[0]!.start_time));
    expect(await bookingTables()).toEqual(before);
  });

  it('refuses past, Sunday, holiday, early-closing and off-the-hour times with alternatives', async () => {
    const from = await freeStart(2);
    const mine = await placeBooking(db.pool, { customerId: 'cus_008', serviceId: 'svc_window_clean', start: from });
    const before = await bookingTables();
    const move = (new_start_time: string) =>
      approvedCall('reschedule_booking', { customer_id: 'cus_008', booking_id: mine.id, new_start_time });
    const cases: [string, string, RegExp][] = [
      ['2026-12-07T08:00:00-05:00', 'slot_in_past', /in the past/],
      ['2026-12-13T10:00:00-05:00', 'outside_business_hours', /no visits on that day/ /* Sunday */],
      ['2026-12-25T10:00:00-05:00', 'outside_business_hours', /closed/ /* Christmas Day, a Friday */],
      ['2026-12-24T13:00:00-05:00', 'outside_business_hours', /run past closing/ /* closes early; a 2-hour visit */],
      ['2026-12-24T15:00:00-05:00', 'outside_business_hours', /between 8:00 and 13:00/],
      ['2026-12-08T10:30:00-05:00', 'outside_business_hours', /on the hour/],
    ];
    for (const [t, code, words] of cases) {
      const err = refused((await move(t)).outcome);
      expect({ t, code: err.code }).toEqual({ t, code });
      expect(err.message).toMatch(words);
      expect((err.details.alternatives as unknown[]).length).toBeGreaterThan(0);
    }
    expect(await bookingTables()).toEqual(before);
  });

  it('refuses a move to the time it already has, and says so', async () => {
    const from = await freeStart(1);
    const mine = await placeBooking(db.pool, { customerId: 'cus_008', serviceId: 'svc_handyman_hour', start: from });
    const before = await bookingTables();
    // Same instant, written in UTC: still the same time.
    const err = refused(
      (
        await approvedCall('reschedule_booking', {
          customer_id: 'cus_008',
          booking_id: mine.id,
          new_start_time: new Date(from).toISOString(),
        })
      ).outcome,
    );
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/already/);
    expect(await bookingTables()).toEqual(before);
  });

  it('moves a 3-hour visit one hour later onto its own crew-hours', async () => {
    const from = await freeStart(4);
    const mine = await placeBooking(db.pool, {
      customerId: 'cus_009',
      serviceId: 'svc_standard_clean',
      start: from,
      crew: 'crew-a',
    });
    // The other crew is busy for the new hours: only the booking's own crew-hours make the move possible.
    await placeBooking(db.pool, {
      customerId: 'cus_010',
      serviceId: 'svc_standard_clean',
      start: plus(from, 1),
      crew: 'crew-b',
    });
    const to = plus(from, 1);
    const r = ok(
      (await approvedCall('reschedule_booking', { customer_id: 'cus_009', booking_id: mine.id, new_start_time: to }))
        .outcome,
    ) as { booking: Booking };
    expect(r.booking).toMatchObject({ id: mine.id, crew: 'crew-a' });
    expect((await bookingState(db.pool, mine.id))!.slots).toEqual(slotKeys('crew-a', to, 3));
    expect(await freeCrewsAt(db.pool, from, 1)).toContain('crew-a');
  });

  it("answers not_found for another customer's booking exactly as for a booking that doesn't exist", async () => {
    const start = await freeStart(1);
    const theirs = await placeBooking(db.pool, { customerId: 'cus_010', serviceId: 'svc_handyman_hour', start });
    const target = await freeStart(1, plus(start, 2));
    const before = await bookingState(db.pool, theirs.id);
    for (const name of ['reschedule_booking', 'cancel_booking']) {
      const args = (booking_id: string) =>
        name === 'reschedule_booking'
          ? { customer_id: 'cus_011', booking_id, new_start_time: target }
          : { customer_id: 'cus_011', booking_id };
      const other = refused((await approvedCall(name, args(theirs.id), as('cus_011'))).outcome);
      const missing = refused((await approvedCall(name, args('BKG-999999'), as('cus_011'))).outcome);
      expect({ name, other: other.code, missing: missing.code }).toEqual({
        name,
        other: 'not_found',
        missing: 'not_found',
      });
      expect(other.message.replace(theirs.id, '#')).toBe(missing.message.replace('BKG-999999', '#'));
      expect(Object.keys(other.details).sort()).toEqual(Object.keys(missing.details).sort());
      // Staff naming the wrong customer for a booking get the same answer.
      expect(refused((await approvedCall(name, args(theirs.id))).outcome).code).toBe('not_found');
      // Naming the other customer in this conversation is out of scope, before anything is looked up.
      const theirArgs = { ...args(theirs.id), customer_id: 'cus_010' };
      expect(refused((await approvedCall(name, theirArgs, as('cus_011'), {})).outcome).code).toBe('out_of_scope');
    }
    expect(await bookingState(db.pool, theirs.id)).toEqual(before);
  });
});

describe('cancel_booking', () => {
  it('cancels: status cancelled, crew-hours free and bookable again; then it cannot be changed', async () => {
    const start = await freeStart(2);
    const mine = await placeBooking(db.pool, { customerId: 'cus_012', serviceId: 'svc_drywall_patch', start });
    await placeBooking(db.pool, { customerId: 'cus_013', serviceId: 'svc_drywall_patch', start });
    expect(await freeCrewsAt(db.pool, start, 2)).toEqual([]);

    const r = ok(
      (
        await approvedCall('cancel_booking', {
          customer_id: 'cus_012',
          booking_id: mine.id,
          reason: 'Moving away',
        })
      ).outcome,
    ) as { booking: Booking; fee: Record<string, unknown> };
    expect(r.booking).toMatchObject({
      id: mine.id,
      customer_id: 'cus_012',
      status: 'cancelled',
      service_name: 'Drywall Patch Repair',
      price_cents: 16500,
    });
    expect(at(r.booking.starts_at)).toBe(at(start));
    expect(r.fee).toMatchObject({ fee_cents: 0, rule: expect.stringMatching(/^free/) });
    expect(await bookingState(db.pool, mine.id)).toMatchObject({ status: 'cancelled', slots: [] });
    expect(await freeCrewsAt(db.pool, start, 2)).toEqual([mine.crew]);
    ok(
      (await approvedCall('book_slot', { customer_id: 'cus_014', service_id: 'svc_drywall_patch', start_time: start }))
        .outcome,
    );

    const later = { createdAt: AFTER_EARLIER_CHANGES };
    const again = refused(
      (await approvedCall('cancel_booking', { customer_id: 'cus_012', booking_id: mine.id }, staff, later)).outcome,
    );
    expect(again.code).toBe('booking_not_changeable');
    const move = refused(
      (
        await approvedCall(
          'reschedule_booking',
          { customer_id: 'cus_012', booking_id: mine.id, new_start_time: await freeStart(2) },
          staff,
          later,
        )
      ).outcome,
    );
    expect(move.code).toBe('booking_not_changeable');
    expect(move.message).toMatch(/cancelled/);
  });

  it('refuses a visit that has started or is over', async () => {
    const past = await placeBooking(db.pool, {
      customerId: 'cus_012',
      serviceId: 'svc_handyman_hour',
      start: '2026-12-04T10:00:00-05:00',
      withSlots: false,
    });
    const running = await placeBooking(db.pool, {
      customerId: 'cus_012',
      serviceId: 'svc_standard_clean',
      start: '2026-12-07T08:00:00-05:00',
      withSlots: false,
    });
    const before = await bookingTables();
    for (const b of [past, running]) {
      for (const [name, extra] of [
        ['cancel_booking', {}],
        ['reschedule_booking', { new_start_time: await freeStart(1) }],
      ] as const) {
        const err = refused((await approvedCall(name, { customer_id: 'cus_012', booking_id: b.id, ...extra })).outcome);
        expect({ name, code: err.code }).toEqual({ name, code: 'booking_not_changeable' });
      }
    }
    expect(await bookingTables()).toEqual(before);
  });
});

describe('the change fee', () => {
  it('is $25 to move and half the price to cancel within 24 hours, set by the booked start', async () => {
    expect((await freeCrewsAt(db.pool, SOON, 1)).length).toBeGreaterThan(0);
    const soon = await placeBooking(db.pool, { customerId: 'cus_015', serviceId: 'svc_handyman_hour', start: SOON });
    const away = await freeStart(1);
    const moved = ok(
      (
        await approvedCall(
          'reschedule_booking',
          { customer_id: 'cus_015', booking_id: soon.id, new_start_time: away },
          staff,
          { createdAt: TEST_NOW },
        )
      ).outcome,
    );
    expect(moved.fee).toEqual({ fee_cents: 2500, notice_hours: 23, rule: CHANGE_POLICY.reschedule[0].label });

    // Moving a booking that is days away onto tomorrow morning is free: the fee follows the old start.
    const far = await placeBooking(db.pool, {
      customerId: 'cus_016',
      serviceId: 'svc_handyman_hour',
      start: await freeStart(1, plus(away, 2)),
    });
    const toSoon = ok(
      (await approvedCall('reschedule_booking', { customer_id: 'cus_016', booking_id: far.id, new_start_time: SOON }))
        .outcome,
    );
    expect(toSoon.fee).toMatchObject({ fee_cents: 0 });

    const cancelled = ok(
      (
        await approvedCall('cancel_booking', { customer_id: 'cus_016', booking_id: far.id }, staff, {
          createdAt: AFTER_EARLIER_CHANGES,
        })
      ).outcome,
    );
    expect(cancelled.fee).toEqual({ fee_cents: 4750, notice_hours: 23, rule: CHANGE_POLICY.cancel[0].label });
  });
});

describe('the fee follows the moment the customer asked', () => {
  it('a cancellation asked for more than 24 hours ahead stays free when it is approved within 24 hours', async () => {
    // A booking row only: the crew-hours of tomorrow morning may be taken by the tests above.
    const start = SOON;
    const booking = await placeBooking(db.pool, {
      customerId: 'cus_018',
      serviceId: 'svc_handyman_hour',
      start,
      withSlots: false,
    });
    const hoursAhead = (at(start) - at(TEST_NOW)) / HOUR;
    expect(hoursAhead).toBeLessThan(24);
    // Asked 30 hours before the visit, decided now: within 24 hours of it.
    const asked = new Date(at(start) - 30 * HOUR).toISOString();
    const { outcome } = await approvedCall(
      'cancel_booking',
      { customer_id: 'cus_018', booking_id: booking.id },
      staff,
      {
        createdAt: asked,
      },
    );
    expect(ok(outcome).fee).toMatchObject({ fee_cents: 0, rule: expect.stringMatching(/^free/) });
  });
});

describe('the approval gate', () => {
  it('refuses both tools without an approval and changes nothing', async () => {
    const start = await freeStart(1);
    const mine = await placeBooking(db.pool, { customerId: 'cus_017', serviceId: 'svc_handyman_hour', start });
    const before = await businessSnapshot(db.pool);
    const to = await freeStart(1, plus(start, 2));
    expect(
      refused(
        await tool('reschedule_booking', { customer_id: 'cus_017', booking_id: mine.id, new_start_time: to }, staff),
      ).code,
    ).toBe('approval_required');
    expect(refused(await tool('cancel_booking', { customer_id: 'cus_017', booking_id: mine.id }, staff)).code).toBe(
      'approval_required',
    );
    expect(await businessSnapshot(db.pool)).toEqual(before);
  });

  it('returns the stored result for a replayed approval, changing the booking once', async () => {
    const start = await freeStart(1);
    const mine = await placeBooking(db.pool, { customerId: 'cus_017', serviceId: 'svc_handyman_hour', start });
    const to = await freeStart(1, plus(start, 2));
    const args = { customer_id: 'cus_017', booking_id: mine.id, new_start_time: to };
    const { id, outcome } = await approvedCall('reschedule_booking', args, as('cus_017'));
    const first = ok(outcome);
    const tables = await bookingTables();
    const second = await tool('reschedule_booking', args, { ...as('cus_017'), approval_id: id });
    expect(ok(second)).toEqual(first);
    expect(second.ok && second.meta).toMatchObject({ replay: true, approval_id: id });
    expect(await bookingTables()).toEqual(tables);
    expect((await bookingState(db.pool, mine.id))!.slots).toEqual(slotKeys(mine.crew, to, 1));
    expect(
      (
        await db.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`, [
          id,
        ])
      ).rows[0].n,
    ).toBe(1);

    const cancel = await approvedCall('cancel_booking', { customer_id: 'cus_017', booking_id: mine.id }, staff, {
      createdAt: AFTER_EARLIER_CHANGES,
    });
    const cancelled = ok(cancel.outcome);
    expect(
      ok(
        await tool(
          'cancel_booking',
          { customer_id: 'cus_017', booking_id: mine.id },
          {
            ...staff,
            approval_id: cancel.id,
          },
        ),
      ),
    ).toEqual(cancelled);
  });

  it('lets one of two racing approvals change a booking and refuses the other cleanly', async () => {
    for (let round = 0; round < 3; round++) {
      const start = await freeStart(1);
      const mine = await placeBooking(db.pool, { customerId: 'cus_018', serviceId: 'svc_handyman_hour', start });
      const t1 = await freeStart(1, plus(start, 2));
      const t2 = round === 1 ? t1 : await freeStart(1, plus(t1, 2));
      const requests: [string, Record<string, unknown>][] = [
        ['reschedule_booking', { customer_id: 'cus_018', booking_id: mine.id, new_start_time: t1 }],
        round === 2
          ? ['cancel_booking', { customer_id: 'cus_018', booking_id: mine.id }]
          : ['reschedule_booking', { customer_id: 'cus_018', booking_id: mine.id, new_start_time: t2 }],
      ];
      const ids = await Promise.all(
        requests.map(([name, args], i) =>
          insertApproval(db.pool, { tool: name, args, threadId: `race:${round}:${i}` }),
        ),
      );
      const outcomes: Outcome[] = await Promise.all(
        requests.map(([name, args], i) => tool(name, args, { ...staff, approval_id: ids[i] })),
      );
      const won = outcomes.filter((o) => o.ok);
      const lost = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
      expect({ round, won: won.length, lost: lost.map((o) => o.code) }).toEqual({
        round,
        won: 1,
        lost: [expect.stringMatching(/^(conflict|booking_not_changeable)$/)],
      });
      const winner = requests[outcomes.findIndex((o) => o.ok)]!;
      const state = (await bookingState(db.pool, mine.id))!;
      if (winner[0] === 'cancel_booking') expect(state).toMatchObject({ status: 'cancelled', slots: [] });
      else {
        const time = winner[1].new_start_time as string;
        expect(state).toMatchObject({ status: 'confirmed', starts_at: new Date(time).toISOString() });
        expect(state.slots).toEqual(slotKeys(state.crew, time, 1));
      }
      // Nothing else holds a crew-hour for this booking, and the losing time is as free as before.
      for (const t of new Set([start, t1, t2]))
        if (!state.slots.some((s) => at(s.split('@')[1]!) === at(t)))
          expect(await freeCrewsAt(db.pool, t, 1)).toHaveLength(2);
      expect((await Promise.all(ids.map((id) => approvalRow(db.pool, id)))).map((r) => r!.status).sort()).toEqual([
        'executed',
        'failed',
      ]);
    }
  });

  it('lets a request made after a change move the booking again', async () => {
    const start = await freeStart(1);
    const mine = await placeBooking(db.pool, { customerId: 'cus_019', serviceId: 'svc_handyman_hour', start });
    const t1 = await freeStart(1, plus(start, 2));
    const t2 = await freeStart(1, plus(t1, 2));
    ok(
      (await approvedCall('reschedule_booking', { customer_id: 'cus_019', booking_id: mine.id, new_start_time: t1 }))
        .outcome,
    );
    // Made before that move executed: the manager approved it for a booking that has changed since.
    const stale = refused(
      (await approvedCall('reschedule_booking', { customer_id: 'cus_019', booking_id: mine.id, new_start_time: t2 }))
        .outcome,
    );
    expect(stale.code).toBe('conflict');
    expect(stale.message).toMatch(/changed/);
    const fresh = ok(
      (
        await approvedCall(
          'reschedule_booking',
          { customer_id: 'cus_019', booking_id: mine.id, new_start_time: t2 },
          staff,
          { createdAt: AFTER_EARLIER_CHANGES },
        )
      ).outcome,
    ) as { booking: Booking };
    expect(at(fresh.booking.starts_at)).toBe(at(t2));
  });
});

describe('lookup_customer upcoming_bookings', () => {
  it('lists confirmed future bookings, soonest first, with what it takes to name and move one', async () => {
    const a = await freeStart(1);
    const b = await freeStart(2, plus(a, 2));
    const later = await placeBooking(db.pool, { customerId: 'cus_020', serviceId: 'svc_window_clean', start: b });
    const sooner = await placeBooking(db.pool, { customerId: 'cus_020', serviceId: 'svc_handyman_hour', start: a });
    const cancelled = await placeBooking(db.pool, {
      customerId: 'cus_020',
      serviceId: 'svc_handyman_hour',
      start: plus(b, 3),
      status: 'cancelled',
    });
    const past = await placeBooking(db.pool, {
      customerId: 'cus_020',
      serviceId: 'svc_handyman_hour',
      start: '2026-12-03T10:00:00-05:00',
      withSlots: false,
    });
    const r = ok(await tool('lookup_customer', { customer_id: 'cus_020' }, as('cus_020')));
    const upcoming = r.upcoming_bookings as Booking[];
    const ids = upcoming.map((x) => x.id);
    expect(ids).toContain(sooner.id);
    expect(ids).toContain(later.id);
    expect(ids).not.toContain(cancelled.id);
    expect(ids).not.toContain(past.id);
    expect(upcoming.map((x) => at(x.starts_at))).toEqual(upcoming.map((x) => at(x.starts_at)).sort((x, y) => x - y));
    for (const x of upcoming) {
      expect(Object.keys(x).sort()).toEqual(
        ['crew', 'ends_at', 'id', 'price_cents', 'service_id', 'service_name', 'starts_at', 'status'].sort(),
      );
      expect(x.status).toBe('confirmed');
      expect(at(x.starts_at)).toBeGreaterThan(at(TEST_NOW));
    }
    expect(upcoming.find((x) => x.id === later.id)).toEqual({
      id: later.id,
      service_id: 'svc_window_clean',
      service_name: 'Interior Window Cleaning',
      starts_at: isoInZone(new Date(b), TEST_TZ),
      ends_at: plus(b, 2),
      crew: later.crew,
      price_cents: 12900,
      status: 'confirmed',
    });
  });
});

describe('book_slot on the same calendar', () => {
  it('refuses holidays and the early-closing hours too', async () => {
    const book = (start_time: string, service_id = 'svc_handyman_hour') =>
      approvedCall('book_slot', { customer_id: 'cus_021', service_id, start_time });
    expect(refused((await book('2026-12-25T10:00:00-05:00')).outcome).code).toBe('outside_business_hours');
    expect(refused((await book('2026-12-24T15:00:00-05:00')).outcome).code).toBe('outside_business_hours');
    expect(refused((await book('2026-12-24T13:00:00-05:00', 'svc_window_clean')).outcome).code).toBe(
      'outside_business_hours',
    );
  });
});
