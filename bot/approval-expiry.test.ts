import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { TEST_TZ } from '../core/testing/test-database.js';
import { call, propose, say } from '../agent/testing/fixtures.js';
import { startHarness, type Harness } from '../agent/testing/harness.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { approvalCard } from './blocks/card.js';
import { loadCardContext } from './cards.js';

/*
 * "A request proposed at 2 AM expired at 6 AM, before anyone was at work": with no wall-clock TTL
 * configured, a request waits until the end of the next business day.
 */
const model = new ScriptedModel((messages) => {
  const last = messages[messages.length - 1]!;
  if (last.name === 'approval_update') return say('update');
  return propose(
    call('create_ticket', {
      customer_id: 'cus_013',
      subject: 'Broken blind',
      description: String(last.content),
      category: 'damage',
    }),
  );
});

// Monday, December 7, 02:00 EST.
const clock = new ManualClock('2026-12-07T07:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model, clock, ttlMinutes: null });
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

describe('expiry in business time', () => {
  it('a request made overnight is still pending, and decidable, when the managers arrive at 9', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'test:expiry:overnight',
      customerId: 'cus_013',
      text: 'the blind in the kitchen broke, please open a ticket',
      source: 'api',
    });
    const id = t.pending[0]!.id;
    const proposed = (await h.agent.ledger.get(id))!;
    expect(proposed.expires_at.toISOString()).toBe('2026-12-08T23:00:00.000Z');
    const card = approvalCard(proposed, await loadCardContext(h.db.pool, proposed, TEST_TZ));
    expect(JSON.stringify(card.blocks)).toContain('Expires Tue, Dec 8, 6:00 PM EST');

    clock.set('2026-12-07T14:00:00Z'); // 09:00 EST
    const swept = await h.agent.service.sweep();
    expect(swept.expired).toBe(0);
    expect((await h.agent.ledger.get(id))!.status).toBe('pending');

    const decided = await h.agent.service.decide({ approvalId: id, approver: 'slack:U01MGR0001', decision: 'approve' });
    expect(decided.approval.status).toBe('executed');
  });
});
