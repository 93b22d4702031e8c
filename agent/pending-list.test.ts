import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';

/*
 * Issue 10 point 2: a phone change was replaced by an unrelated address change and the customer was
 * never told. Every reply in a thread with pending approvals says, from the ledger, which requests
 * still wait; a proposal that replaces an earlier one says so. Offline planner, real graph and ledger.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

const CUSTOMER = 'cus_012';
const send = (threadId: string, text: string) =>
  h.agent.service.handleMessage({ threadId, customerId: CUSTOMER, text, source: 'api' });

describe('the pending list in every reply', () => {
  it('two independent updates both wait and both are listed; a changed phone says it replaced the first', async () => {
    const thread = 'pending-list:1';
    const phone = await send(thread, 'please update my phone number to 555-909-1234');
    expect(phone.pending).toHaveLength(1);
    expect(phone.reply).toMatch(/phone number to 555-909-1234/);

    const address = await send(thread, 'Update my address: 9 Lantern Lane, Fernbrook MH 2105');
    expect(address.pending.map((a) => a.tool)).toEqual(['update_customer', 'update_customer']);
    // This turn's request and the earlier one still waiting, both in the reply.
    expect(address.reply).toMatch(/address to 9 Lantern Lane/);
    expect(address.reply).toMatch(/Also still waiting for a manager:\n• Update your phone number to 555-909-1234/);
    expect(address.reply).not.toMatch(/replaces/);

    const again = await send(thread, 'actually make the phone 555-909-7777');
    expect(again.pending).toHaveLength(2);
    expect(again.reply).toMatch(/phone number to 555-909-7777/);
    expect(again.reply).toMatch(/This replaces your earlier request to update your phone number to 555-909-1234\./);
    expect(again.reply).toMatch(/Also still waiting for a manager:\n• Update your address to 9 Lantern Lane/);
  });

  it('an answer in a thread with pending requests ends with what still waits; else nothing added', async () => {
    const thread = 'pending-list:2';
    const plain = await send(thread, 'what are your opening hours?');
    expect(plain.pending).toEqual([]);
    expect(plain.reply).not.toMatch(/waiting for a manager/i);

    await send(thread, 'please update my phone number to 555-909-4321');
    const answer = await send(thread, 'what are your opening hours?');
    expect(answer.status).toBe('pending_approval');
    expect(answer.reply).toMatch(/\n\nStill waiting for a manager:\n• Update your phone number to 555-909-4321$/);
  });

  it('after a decision the reply lists what else still waits', async () => {
    const thread = 'pending-list:3';
    const first = await send(thread, 'please update my phone number to 555-909-5555');
    await send(thread, 'Update my address: 9 Lantern Lane, Fernbrook MH 2105');
    const phoneApproval = first.pending[0]!;
    const out = await h.agent.service.decide({
      approvalId: phoneApproval.id,
      approver: 'slack:UMGR',
      decision: 'reject',
      reason: 'please call us',
    });
    expect(out.turn?.reply).toMatch(/Still waiting for a manager:\n• Update your address to 9 Lantern Lane/);
    expect(out.turn?.reply).not.toMatch(/waiting for a manager:[\s\S]*phone number to 555-909-5555/);
  });
});

describe('a model that already said what waits', () => {
  it('gets no second list', async () => {
    const model = new ScriptedModel(() => say('ok'));
    const other = await startHarness({ model, db: h.db, clock: h.clock });
    try {
      const ledger = other.agent.ledger;
      const a = await ledger.propose({
        threadId: 'pending-list:4',
        toolCallId: 'call_pl_4',
        tool: 'update_customer',
        rawArgs: { customer_id: CUSTOMER, changes: { phone: '555 909 6666' } },
        customerId: CUSTOMER,
        proposedBy: 'agent',
        requestText: null,
      });
      expect(a.approval.status).toBe('pending');
      model.script = () => say('Your request to update your phone number to 555 909 6666 is still waiting.');
      const t = await other.agent.service.handleMessage({
        threadId: 'pending-list:4',
        customerId: CUSTOMER,
        text: 'any news?',
        source: 'api',
      });
      expect(t.reply).toBe('Your request to update your phone number to 555 909 6666 is still waiting.');
    } finally {
      await other.close();
    }
  });
});
