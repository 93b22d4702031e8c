import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../testing/harness.js';
import { OfflinePlanner } from './model.js';

let h: Harness;
beforeAll(async () => { h = await startHarness({ model: new OfflinePlanner() }); });
afterAll(async () => { await h.close(); await h.db.drop(); });

const say = async (threadId: string, text: string, customerId: string | null = 'cus_001') => {
  const t = await h.agent.service.handleMessage({ threadId, customerId, text, source: 'api' } as any);
  console.log(`\n[${threadId}] > ${text}\n  status=${t.status}\n  ${String(t.reply).replace(/\n/g, '\n  ')}`);
  return t;
};

it('flows', async () => {
  const a = await say('f1', 'please book a handyman hour on Dec 9 at 3pm');
  const b = await say('f1', 'same time next week');
  console.log('pending', JSON.stringify(b.pending));
  const last = b.pending?.[b.pending.length - 1];
  if (last) {
    const d = await h.agent.service.decide({ approvalId: last.id, approver: 'slack:U01MGR0001', decision: 'approve' });
    console.log('  decided:', d.approval.status, '\n  ', d.turn?.reply);
  }
  await say('f1', 'email me the confirmation');
  await say('f1', "what's on my account");
  await say('f2', 'we moved to 12 Oak St Apt 3, Maple Harbor MH 1042 and I prefer texts');
  await say('f3', 'book a tv mount Thursday at 1 and we have a dog, please keep the gate closed');
  await say('f4', 'how do I pay?');
  await say('f4', "what's your cancellation policy?");
  await say('f4', 'do you do gutter cleaning?');
  await say('f4', 'yes please');
  expect(a.status).toBeDefined();
});
