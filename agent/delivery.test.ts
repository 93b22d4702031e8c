import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryPort } from './delivery-port.js';
import { call, lastEvent, propose, say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';

/* Promise 6, nothing silently dropped: repeated deliveries are recognised, undelivered replies retried. */
let h: Harness;
let calls = 0;
const model = new ScriptedModel((messages) => {
  calls++;
  if (lastEvent(messages)) return say('Your ticket is open.');
  const text = String(messages[messages.length - 1]!.content);
  return /ticket/.test(text)
    ? propose(
        call('create_ticket', {
          customer_id: 'cus_014',
          subject: 'Gutter overflow',
          description: text,
          category: 'general',
        }),
      )
    : say(`answer to: ${text}`);
});

/** What the conversation's channel does with replies; a test swaps it (default: they arrive). */
const arrive = async (_replies: string[]): Promise<void> => undefined;
let channel: (replies: string[]) => Promise<void> = arrive;
const delivery: DeliveryPort = {
  deliver: (_thread, replies) => channel(replies.map((r) => r.text)),
  approvalsChanged: async () => undefined,
};

beforeAll(async () => {
  h = await startHarness({ model, delivery });
});
afterAll(async () => {
  await h.close();
  await h.db.drop();
});

const undelivered = async (threadId: string) =>
  (
    await h.db.pool.query(
      `SELECT text FROM conversation_messages
        WHERE thread_id = $1 AND role = 'agent' AND delivered_at IS NULL ORDER BY id`,
      [threadId],
    )
  ).rows.map((r) => r.text as string);

describe('a repeated delivery of one message', () => {
  it('is answered once: the repeat gets the undelivered replies back and runs nothing', async () => {
    const input = {
      threadId: 'delivery:1',
      customerId: 'cus_014',
      text: 'do you clean gutters?',
      source: 'slack' as const,
      messageKey: 'Ev001',
    };
    channel = async () => {
      throw new Error('the worker died before posting');
    };
    const first = await h.agent.service.handleMessage(input);
    channel = arrive;
    expect(first.reply).toBe('answer to: do you clean gutters?');
    const before = calls;
    const again = await h.agent.service.handleMessage(input); // the worker died before posting; the inbox retries
    expect(calls).toBe(before);
    expect(again.replies).toEqual(['answer to: do you clean gutters?']);
    await h.agent.service.markDelivered(again.replyIds);
    const third = await h.agent.service.handleMessage(input); // and once delivered, nothing is repeated
    expect(third.replies).toEqual([]);
    const rows = await h.db.pool.query(
      `SELECT role FROM conversation_messages WHERE thread_id = 'delivery:1' ORDER BY id`,
    );
    expect(rows.rows.map((r) => r.role)).toEqual(['customer', 'agent']);
  });
});

describe('replies produced by a decision', () => {
  it('are retried by the sweeper when delivery fails, and delivered once', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'delivery:2',
      customerId: 'cus_014',
      text: 'open a ticket please',
      source: 'slack',
    });
    await h.agent.service.markDelivered(t.replyIds);
    const delivered: string[] = [];
    let failNext = true;
    channel = async (replies) => {
      if (failNext) {
        failNext = false;
        throw new Error('slack is down');
      }
      delivered.push(...replies);
    };
    const out = await h.agent.service.decide({
      approvalId: t.pending[0]!.id,
      approver: 'slack:U01MGR0001',
      decision: 'approve',
    });
    expect(out.approval.status).toBe('executed');
    expect(delivered).toEqual([]);
    expect(await undelivered('delivery:2')).toEqual(['Your ticket is open.']);
    await h.agent.service.sweep({ graceMs: 0 });
    expect(delivered).toEqual(['Your ticket is open.']);
    await h.agent.service.sweep({ graceMs: 0 });
    expect(delivered).toEqual(['Your ticket is open.']);
    expect(await undelivered('delivery:2')).toEqual([]);
    channel = arrive;
  });
});
