// The flow through the local workspace with the offline planner: book → approve on the card
// → "move it to …" → a reschedule card naming the booking → approve → one booking at the new time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflinePlanner } from '../agent/model/offline/index.js';
import { ACTIONS } from './ids.js';
import { LOCAL_IDS } from './local-mode.js';
import { botRepliesIn, cardFor, startBotStack, textOfMessage, type BotStack } from './testing/stack.js';

const MANAGERS = LOCAL_IDS.managers;
const SOFIA = 'U01CUS0001';
const DANA = 'U01MGR0001';

let s: BotStack;
beforeAll(async () => {
  s = await startBotStack({ model: () => new OfflinePlanner() });
});
afterAll(async () => {
  await s?.close();
});

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pendingOf = async (threadId: string, tool: string) =>
  (
    await s.db.pool.query<{ id: string; args: Record<string, string> }>(
      `SELECT id, args FROM approvals WHERE thread_id = $1 AND tool = $2 AND status = 'pending'`,
      [threadId, tool],
    )
  ).rows[0];

describe('moving a booking through Slack', () => {
  it('the card names the booking moved; approved, the same booking is at the new time, once', async () => {
    const first = await s.slack.sendDirectMessage(SOFIA, 'Please book a window cleaning for Thursday at 10am');
    const thread = `slack:${first.channel}:${first.ts}`;
    const book = await until(() => pendingOf(thread, 'book_slot'));
    const bookCard = await s.slack.waitFor(() => cardFor(s.slack, MANAGERS, book.id), 8000);
    expect((await s.slack.click(DANA, MANAGERS, bookCard.ts, ACTIONS.approve)).status).toBe(200);
    const booked = await until(() =>
      s.db.pool
        .query<{ id: string }>(`SELECT id FROM bookings WHERE approval_id = $1`, [book.id])
        .then((r) => r.rows[0]),
    );

    await s.slack.postAsUser(SOFIA, first.channel, 'can you move it to Friday at 2pm?', { thread_ts: first.ts });
    const move = await until(() => pendingOf(thread, 'reschedule_booking'));
    expect(move.args.booking_id).toBe(booked.id);
    const card = await s.slack.waitFor(() => cardFor(s.slack, MANAGERS, move.id), 8000);
    const text = textOfMessage(card);
    expect(text).toContain(booked.id);
    expect(text).toContain('Thu, Dec 10, 10:00 AM EST → *Fri, Dec 11, 2:00 PM EST*');
    expect((await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve)).status).toBe(200);
    await s.slack.waitFor(() => botRepliesIn(s.slack, first.channel, first.ts).some((m) => /moved/i.test(m.text)));
    const rows = (
      await s.db.pool.query<{ id: string; starts_at: Date }>(
        `SELECT id, starts_at FROM bookings WHERE customer_id = 'cus_001' AND approval_id IS NOT NULL`,
      )
    ).rows;
    expect(rows).toEqual([{ id: booked.id, starts_at: new Date('2026-12-11T19:00:00Z') }]);
  }, 60_000);
});
