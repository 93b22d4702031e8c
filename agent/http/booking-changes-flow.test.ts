// The whole flow over the HTTP API with the offline planner, as a customer and a manager
// would drive it: book → approve → "move it to …" → a reschedule naming the booking → approve →
// exactly one booking at the new time and the old crew-hours free; then cancel it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../core/config.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createApiRouter } from './api.js';
import { send } from './router.js';

const MANAGER = 'manager-key-flow-123';
const CUSTOMER = 'cus_019';
let h: Harness;
let server: Server;
let base: string;

async function req(method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const chat = (thread: string, message: string) =>
  req('POST', '/chat', { customer: CUSTOMER, thread_id: thread, message });
const approve = (id: string) => req('POST', `/approvals/${id}/approve`, {}, MANAGER);

beforeAll(async () => {
  h = await startHarness();
  const config = testConfig({ MANAGER_API_KEY: MANAGER, RATE_LIMIT_PER_MINUTE: '1000' });
  const router = createApiRouter({ config, pool: h.db.pool, agent: h.agent.service });
  server = createServer(
    (rq, rs) => void router.handle(rq, rs, () => undefined).then((hit) => hit || send(rs, 404, {})),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await h.close();
  await h.db.drop();
});

async function bookingsOf(customer: string) {
  return (
    await h.db.pool.query<{ id: string; starts_at: Date; status: string; slots: number }>(
      `SELECT b.id, b.starts_at, b.status,
         (SELECT count(*)::int FROM booking_slots s WHERE s.booking_id = b.id) AS slots
       FROM bookings b WHERE b.customer_id = $1 AND b.approval_id IS NOT NULL ORDER BY b.created_at`,
      [customer],
    )
  ).rows;
}

describe('book, move and cancel over the HTTP API', () => {
  it('moves the booking it made (never a second one), then cancels it, freeing the crew-hours', async () => {
    const thread = 'api:booking-flow';
    const booked = await chat(thread, 'Please book a window cleaning for Thursday at 10am');
    expect(booked.body, JSON.stringify(booked.body)).toMatchObject({
      status: 'pending_approval',
      approvals: [{ tool: 'book_slot' }],
    });
    expect((await approve(booked.body.approvals[0].id)).body).toMatchObject({ approval: { status: 'executed' } });
    const [first] = await bookingsOf(CUSTOMER);
    expect(first).toMatchObject({ status: 'confirmed' });

    const moved = await chat(thread, 'Actually can you move it to Friday at 2pm?');
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject({
      status: 'pending_approval',
      approvals: [{ tool: 'reschedule_booking', args: { booking_id: first!.id } }],
    });
    expect((await approve(moved.body.approvals[0].id)).body).toMatchObject({ approval: { status: 'executed' } });
    const afterMove = await bookingsOf(CUSTOMER);
    expect(afterMove).toHaveLength(1);
    expect(afterMove[0]!.id).toBe(first!.id);
    expect(afterMove[0]!.starts_at.toISOString()).toBe('2026-12-11T19:00:00.000Z');
    const oldSlots = await h.db.pool.query(
      `SELECT count(*)::int AS n FROM booking_slots bs JOIN slots s ON s.id = bs.slot_id
       WHERE bs.booking_id = $1 AND s.starts_at = $2`,
      [first!.id, first!.starts_at],
    );
    expect(oldSlots.rows[0].n).toBe(0);

    const cancelled = await chat(thread, 'Sorry, please cancel that booking altogether');
    expect(cancelled.body, JSON.stringify(cancelled.body)).toMatchObject({
      status: 'pending_approval',
      approvals: [{ tool: 'cancel_booking', args: { booking_id: first!.id } }],
    });
    // More than 24 hours' notice: the reply says it is free.
    expect(cancelled.body.reply).toMatch(/no fee|free/i);
    expect((await approve(cancelled.body.approvals[0].id)).body).toMatchObject({ approval: { status: 'executed' } });
    expect(await bookingsOf(CUSTOMER)).toEqual([expect.objectContaining({ status: 'cancelled', slots: 0 })]);
  }, 60_000);
});
