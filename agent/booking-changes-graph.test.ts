import { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflinePlanner } from './model/offline/index.js';
import type { Reply } from './reply.js';
import type { AgentStateType } from './state.js';
import { startHarness, type Harness } from './testing/harness.js';

/*
 * Moving and cancelling bookings through the real graph, tool server and ledger with the offline
 * planner: the reported failure ("move my deep clean to wednesday" became a second booking), a
 * cancellation replacing a pending move, and a yes after an expiry submitting the request again.
 */

let h: Harness;
const delivered: Reply[] = [];

beforeAll(async () => {
  h = await startHarness({
    model: new OfflinePlanner(),
    delivery: {
      deliver: async (_thread, replies) => void delivered.push(...replies),
      approvalsChanged: async () => {},
    },
  });
});
afterAll(async () => {
  await h.close();
  await h.db.drop();
});

const say = (threadId: string, customerId: string, text: string) =>
  h.agent.service.handleMessage({ threadId, customerId, text, source: 'api' });

async function toolCallsOf(threadId: string): Promise<string[]> {
  const state = await h.agent.graph.getState({ configurable: { thread_id: threadId } });
  const messages = (state.values as Partial<AgentStateType>).messages ?? [];
  return messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.name) : []));
}

describe('moving and cancelling a booking the customer already has', () => {
  it('"can you move my deep clean to wednesday" proposes reschedule_booking of it, not book_slot', async () => {
    // A deep clean the customer booked earlier, in another conversation (the seed gives them a handyman hour too).
    const booked = await say('bc-graph:book', 'cus_003', 'book a deep clean on friday at 10am');
    const done = await h.agent.service.decide({
      approvalId: booked.pending[0]!.id,
      approver: 'slack:U01MGR0001',
      decision: 'approve',
    });
    expect(done.approval.status).toBe('executed');
    const deep = (
      await h.db.pool.query<{ id: string }>(
        `SELECT id FROM bookings
         WHERE customer_id = 'cus_003' AND service_id = 'svc_deep_clean' AND status = 'confirmed'`,
      )
    ).rows;
    expect(deep).toHaveLength(1);

    const thread = 'bc-graph:move';
    const t = await say(thread, 'cus_003', 'can you move my deep clean to wednesday');
    expect(t.status).toBe('pending_approval');
    expect(t.pending.map((p) => ({ tool: p.tool, args: p.args }))).toEqual([
      {
        tool: 'reschedule_booking',
        args: { customer_id: 'cus_003', booking_id: deep[0]!.id, new_start_time: '2026-12-09T10:00:00-05:00' },
      },
    ]);
    expect(await toolCallsOf(thread)).toEqual(['lookup_customer', 'reschedule_booking']);
    expect(t.reply).toContain('from Fri, Dec 11, 10:00 AM EST to Wed, Dec 9, 10:00 AM EST');
    expect(t.reply).toMatch(/no fee/i);

    // "actually just cancel it": a cancellation of the same booking, which replaces the pending move.
    const c = await say(thread, 'cus_003', 'actually just cancel it');
    expect(c.pending.map((p) => ({ tool: p.tool, args: p.args }))).toEqual([
      { tool: 'cancel_booking', args: { customer_id: 'cus_003', booking_id: deep[0]!.id } },
    ]);
    expect((await h.agent.ledger.get(t.pending[0]!.id))!.status).toBe('superseded');
    expect(await toolCallsOf(thread)).not.toContain('book_slot');

    const out = await h.agent.service.decide({
      approvalId: c.pending[0]!.id,
      approver: 'slack:U01MGR0001',
      decision: 'approve',
    });
    expect(out.approval.status).toBe('executed');
    expect(out.turn?.reply).toMatch(
      new RegExp(`Deep Cleaning on Fri, Dec 11, 10:00 AM EST \\(${deep[0]!.id}\\) is cancelled`),
    );
    const row = await h.db.pool.query(`SELECT status FROM bookings WHERE id = $1`, [deep[0]!.id]);
    expect(row.rows[0].status).toBe('cancelled');
  });
});

describe('after an approval expired', () => {
  it('"yes pls" to "would you like me to submit it again?" proposes the same call again', async () => {
    const thread = 'bc-graph:expired';
    const first = await say(thread, 'cus_005', 'can you move my drywall patch to friday at 10am?');
    expect(first.pending.map((p) => p.tool)).toEqual(['reschedule_booking']);
    h.clock.advance(241 * 60_000);
    delivered.length = 0;
    await h.agent.service.sweep();
    expect((await h.agent.ledger.get(first.pending[0]!.id))!.status).toBe('expired');
    // Expired, nothing changed, where the visit still is, and the offer to send it again.
    expect(delivered.map((r) => r.text).join('\n')).toMatch(
      /expired and nothing was changed: your .* \(BKG-1005\) is still on .*\. Would you like me/,
    );

    const again = await say(thread, 'cus_005', 'yes pls');
    expect(again.status).toBe('pending_approval');
    expect(again.pending.map((p) => ({ tool: p.tool, args: p.args }))).toEqual([
      { tool: first.pending[0]!.tool, args: first.pending[0]!.args },
    ]);
    expect(again.pending[0]!.id).not.toBe(first.pending[0]!.id);
  });
});
