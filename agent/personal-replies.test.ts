import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryPort } from './delivery-port.js';
import { planContextOf } from './plan-context.js';
import type { Reply } from './reply.js';
import { call, isToolResult, lastEvent, lastOf, propose, say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';
import { lastCustomerText } from './window.js';

/*
 * Promise 9 (issue 10 point 7): each reply is marked personal when it carries the customer's data,
 * decided by the agent from what the turn did and what the words show, so the delivery port can
 * send it privately where others read the conversation. Pure help-centre answers stay public.
 */
const CUSTOMER = 'cus_011';

const model = new ScriptedModel((messages) => {
  const event = lastEvent(messages);
  if (event) return say(`Update on your request: ${event.status}.`);
  if (isToolResult(lastOf(messages))) return say('Here is what I found on your account.');
  const text = lastCustomerText(messages);
  const customer = planContextOf(messages)?.customer;
  if (/phone on file/.test(text)) return propose(call('lookup_customer', { customer_id: CUSTOMER }));
  if (/paste/.test(text)) return say(`We are open 8 to 6. We'll call you on ${customer?.phone ?? ''}.`);
  if (/email me/.test(text)) return say(`Sure, we'll write to ${customer?.email ?? ''}.`);
  if (/ticket/.test(text))
    return propose(
      call('create_ticket', {
        customer_id: CUSTOMER,
        subject: 'Dripping tap',
        description: text,
        category: 'general',
      }),
    );
  if (/book/.test(text)) return say('Which day would suit you?');
  return say('We are open 8 AM to 6 PM, Monday to Saturday.');
});

let h: Harness;
const delivered: { threadId: string; replies: Reply[] }[] = [];
let failing = false;
const delivery: DeliveryPort = {
  deliver: async (threadId, replies) => {
    if (failing) throw new Error('channel down');
    delivered.push({ threadId, replies });
  },
  approvalsChanged: async () => undefined,
};

beforeAll(async () => {
  h = await startHarness({ model, delivery, ttlMinutes: 30 });
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

let n = 0;
const send = async (text: string, opts: { threadId?: string; customerId?: string | null } = {}) => {
  const threadId = opts.threadId ?? `personal:${++n}`;
  const t = await h.agent.service.handleMessage({
    threadId,
    customerId: opts.customerId === undefined ? CUSTOMER : opts.customerId,
    text,
    source: 'slack',
  });
  return { ...t, threadId };
};
const lastDelivered = (threadId: string) => delivered.filter((d) => d.threadId === threadId).at(-1)?.replies;

describe('which replies are personal', () => {
  it('a help-centre answer and a clarifying question are not', async () => {
    const answer = await send('what are your hours?');
    expect(answer.outgoing).toEqual([{ text: 'We are open 8 AM to 6 PM, Monday to Saturday.', personal: false }]);
    expect(lastDelivered(answer.threadId)).toEqual(answer.outgoing);
    const question = await send('I want to book something');
    expect(question.outgoing[0]?.personal).toBe(false);
  });

  it('a reply from a lookup of their record is', async () => {
    const t = await send('what phone on file do you have?');
    expect(t.outgoing).toEqual([{ text: 'Here is what I found on your account.', personal: true }]);
    expect(lastDelivered(t.threadId)?.[0]?.personal).toBe(true);
  });

  it('a model that pastes their phone or email into an answer is caught by the words', async () => {
    const phone = await send('paste it please');
    expect(phone.reply).toMatch(/call you on \S/);
    expect(phone.outgoing[0]?.personal).toBe(true);
    const email = await send('email me the price list');
    expect(email.reply).toMatch(/write to \S+@/);
    expect(email.outgoing[0]?.personal).toBe(true);
  });

  it('a proposal, every later reply of the thread while it waits, and its outcome are', async () => {
    const proposed = await send('ticket: the kitchen tap drips');
    expect(proposed.status).toBe('pending_approval');
    expect(proposed.outgoing[0]?.personal).toBe(true);
    // The answer now ends with the pending request: personal too.
    const later = await send('what are your hours?', { threadId: proposed.threadId });
    expect(later.reply).toMatch(/Still waiting for a manager/);
    expect(later.outgoing[0]?.personal).toBe(true);
    const out = await h.agent.service.decide({
      approvalId: proposed.pending[0]!.id,
      approver: 'slack:UMGR',
      decision: 'reject',
      reason: 'call us',
    });
    expect(out.turn?.outgoing).toEqual([{ text: 'Update on your request: rejected.', personal: true }]);
  });

  it('an expiry told by the sweeper is', async () => {
    const proposed = await send('ticket: the gate squeaks');
    h.clock.advance(31 * 60_000);
    await h.agent.service.sweep({ graceMs: 0 });
    expect(lastDelivered(proposed.threadId)).toEqual([{ text: 'Update on your request: expired.', personal: true }]);
  });

  it('an unlinked visitor has no record: nothing of theirs is personal', async () => {
    const t = await send('paste it please', { customerId: null });
    expect(t.outgoing[0]?.personal).toBe(false);
  });
});

describe('the mark in the outbox', () => {
  it('is stored with the reply, and a redelivery carries it', async () => {
    failing = true;
    const t = await send('what phone on file do you have?');
    expect(t.delivered).toBe(false);
    const row = (
      await h.db.pool.query(`SELECT meta FROM conversation_messages WHERE thread_id = $1 AND role = 'agent'`, [
        t.threadId,
      ])
    ).rows[0];
    expect(row.meta).toMatchObject({ personal: true });
    failing = false;
    await h.agent.service.sweep({ graceMs: 0 });
    expect(lastDelivered(t.threadId)).toEqual([{ text: 'Here is what I found on your account.', personal: true }]);
  });

  it('a row from before the mark existed counts as personal', async () => {
    const t = await send('what are your hours?');
    await h.db.pool.query(
      `INSERT INTO conversation_messages (thread_id, role, text, meta, at)
       VALUES ($1, 'agent', 'old reply', '{}', now())`,
      [t.threadId],
    );
    await h.agent.service.sweep({ graceMs: 0 });
    expect(lastDelivered(t.threadId)).toEqual([{ text: 'old reply', personal: true }]);
  });
});
