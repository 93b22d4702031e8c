import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeStart } from '../testing/fixtures.js';
import { startHarness, type Harness } from '../testing/harness.js';

/*
 * "A phone change was marked superseded by an unrelated address change in the same thread": a new
 * proposal replaces a pending one only when it is the same request changed (same booking, same
 * fields), decided from what it targets, never from the tool name alone.
 */
let h: Harness;
let n = 0;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

const propose = (threadId: string, tool: string, rawArgs: Record<string, unknown>) =>
  h.agent.ledger.propose({
    threadId,
    toolCallId: `call_${++n}`,
    tool,
    rawArgs,
    customerId: 'cus_010',
    proposedBy: 'agent',
    requestText: null,
  });
const status = async (id: string) => (await h.agent.ledger.get(id))!.status;

describe('supersede only what is replaced', () => {
  it('two independent contact changes in one thread both stay pending', async () => {
    const phone = await propose('sup:1', 'update_customer', {
      customer_id: 'cus_010',
      changes: { phone: '555 201 0001' },
    });
    const address = await propose('sup:1', 'update_customer', {
      customer_id: 'cus_010',
      changes: { address: { line1: '12 Elm Street', city: 'Springfield', postal_code: '01234' } },
    });
    expect(address.superseded).toEqual([]);
    expect(await status(phone.approval.id)).toBe('pending');
    expect(await status(address.approval.id)).toBe('pending');
  });

  it('the same field changed again replaces the pending change', async () => {
    const first = await propose('sup:2', 'update_customer', {
      customer_id: 'cus_010',
      changes: { phone: '555 201 0002' },
    });
    const second = await propose('sup:2', 'update_customer', {
      customer_id: 'cus_010',
      changes: { phone: '555 201 0003', email: 'x@example.org' },
    });
    expect(second.superseded.map((a) => a.id)).toEqual([first.approval.id]);
    expect(await status(first.approval.id)).toBe('superseded');
  });

  it('a booking of the same service at another time replaces it; a different service does not', async () => {
    const [t1, t2] = [await freeStart(h.db.pool, 3, 0), await freeStart(h.db.pool, 3, 4)];
    const clean = await propose('sup:3', 'book_slot', {
      customer_id: 'cus_010',
      service_id: 'svc_standard_clean',
      start_time: t1,
    });
    const gutters = await propose('sup:3', 'book_slot', {
      customer_id: 'cus_010',
      service_id: 'svc_window_clean',
      start_time: t1,
    });
    expect(gutters.superseded).toEqual([]);
    const moved = await propose('sup:3', 'book_slot', {
      customer_id: 'cus_010',
      service_id: 'svc_standard_clean',
      start_time: t2,
    });
    expect(moved.superseded.map((a) => a.id)).toEqual([clean.approval.id]);
    expect(await status(gutters.approval.id)).toBe('pending');
  });

  it('two tickets are two requests', async () => {
    const a = await propose('sup:4', 'create_ticket', {
      customer_id: 'cus_010',
      subject: 'Gate squeaks',
      description: 'after the repair',
      category: 'technical',
    });
    const b = await propose('sup:4', 'create_ticket', {
      customer_id: 'cus_010',
      subject: 'Invoice question',
      description: 'charged twice',
      category: 'billing',
    });
    expect(b.superseded).toEqual([]);
    expect(await status(a.approval.id)).toBe('pending');
  });
});
