// Two workers (two products on one database) behind one local workspace: any worker may get any
// delivery, nothing a click needs lives in a worker's memory.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTIONS } from './ids.js';
import { LOCAL_IDS } from './local-mode.js';
import {
  botRepliesIn,
  cardFor,
  hasButtons,
  startBotStack,
  textOfMessage,
  toldCustomer,
  type BotStack,
} from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MANAGERS = LOCAL_IDS.managers;

let s: BotStack;
beforeAll(async () => {
  s = await startBotStack({ workers: 2 });
});
afterAll(async () => {
  await s?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A card follows its decision through the card outbox at Slack's pace: a busy runner takes longer. */
const CARD_MS = 20_000;

async function approvalOf(threadTs: string) {
  const deadline = Date.now() + 8000;
  for (;;) {
    const row = (
      await s.db.pool.query(`SELECT * FROM approvals WHERE thread_id = $1`, [`slack:${SUPPORT}:${threadTs}`])
    ).rows[0];
    if (row?.card_ts) return row;
    if (Date.now() > deadline) throw new Error('no approval card');
    await sleep(20);
  }
}

it('a card posted by one worker is approved through the other, and the customer hears back', async () => {
  const post = await s.slack.postAsUser('U01CUS0004', SUPPORT, 'ticket: the kitchen tap drips', { via: 0 });
  await s.slack.waitFor(() => botRepliesIn(s.slack, SUPPORT, post.ts)[0], 8000);
  const approval = await approvalOf(post.ts);
  const card = cardFor(s.slack, MANAGERS, approval.id)!;

  // Edit opens on worker 1 and is submitted to worker 0; the approve lands wherever.
  await s.slack.click('U01MGR0003', MANAGERS, card.ts, ACTIONS.edit, { via: 1 });
  const [modal] = await s.slack.waitFor(
    () => s.slack.openViews('U01MGR0003').length === 1 && s.slack.openViews('U01MGR0003'),
    5000,
  );
  const submitted = await s.slack.submitView('U01MGR0003', modal!.id, { priority: { value: 'high' } }, { via: 0 });
  expect(submitted.outcome).toBe('closed');

  const done = await s.slack.waitFor(
    () => toldCustomer(s.slack, 'U01CUS0004', SUPPORT, post.ts).find((m) => m.text.startsWith('Done:')),
    8000,
  );
  expect(done.text).toContain('"priority":"high"');
  const updated = await s.slack.waitFor(() => {
    const c = cardFor(s.slack, MANAGERS, approval.id);
    return !hasButtons(c) && textOfMessage(c).includes('*Done:*') && c;
  }, CARD_MS);
  expect(textOfMessage(updated)).toContain('• Priority: normal → *high*');
  const deliveries = s.slack.deliveries();
  expect(deliveries.find((d) => d.kind === 'event' && d.id === post.event_id)?.via).toBe(0);
  expect(deliveries.filter((d) => d.kind === 'interaction').map((d) => d.via)).toEqual([1, 0]);
  const tickets = (await s.db.pool.query(`SELECT priority FROM tickets WHERE approval_id = $1`, [approval.id])).rows;
  expect(tickets).toEqual([{ priority: 'high' }]);
});

it('the same event delivered to both workers (and again) is processed once', async () => {
  const post = await s.slack.postAsUser('U01CUS0005', SUPPORT, 'ticket: the gate latch is broken', { via: 0 });
  await Promise.all([
    s.slack.redeliver(post.event_id, { retryNum: 1, via: 1 }),
    s.slack.redeliver(post.event_id, { retryNum: 2, via: 0 }),
    s.slack.redeliver(post.event_id, { retryNum: 3, via: 1 }),
  ]);
  await s.slack.waitFor(() => botRepliesIn(s.slack, SUPPORT, post.ts)[0], 8000);
  await sleep(400);
  expect(botRepliesIn(s.slack, SUPPORT, post.ts)).toHaveLength(1);
  const approvals = (
    await s.db.pool.query(`SELECT id FROM approvals WHERE thread_id = $1`, [`slack:${SUPPORT}:${post.ts}`])
  ).rows;
  expect(approvals).toHaveLength(1);
  expect(s.slack.messages(MANAGERS).filter((m) => JSON.stringify(m.blocks).includes(approvals[0].id))).toHaveLength(1);
});

it('two managers on two workers at once: one decision, one execution', async () => {
  const post = await s.slack.postAsUser('U01CUS0006', SUPPORT, 'ticket: a window will not close', { via: 1 });
  const approval = await approvalOf(post.ts);
  const card = cardFor(s.slack, MANAGERS, approval.id)!;
  await Promise.all([
    s.slack.click('U01MGR0001', MANAGERS, card.ts, ACTIONS.approve, { via: 0 }),
    s.slack.click('U01MGR0002', MANAGERS, card.ts, ACTIONS.reject, { via: 1 }),
  ]);
  await s.slack.waitFor(
    () => toldCustomer(s.slack, 'U01CUS0006', SUPPORT, post.ts).find((m) => m.text.startsWith('Done:')),
    8000,
  );
  const audit = (
    await s.db.pool.query(`SELECT action FROM audit_log WHERE approval_id = $1 ORDER BY id`, [approval.id])
  ).rows.map((r) => r.action);
  expect(audit).toEqual(['proposed', 'approved', 'executed']);
  // The reject click came in while (or after) the approval won: no reject modal for a decided request,
  // or a modal whose submission is then refused. Either way nothing else happens.
  await sleep(200);
  for (const v of s.slack.openViews('U01MGR0002')) {
    const r = await s.slack.submitView('U01MGR0002', v.id, { reason: { value: 'too late' } });
    expect(JSON.stringify(r.response)).toContain('already approved by <@U01MGR0001>');
  }
  expect((await s.db.pool.query(`SELECT status FROM approvals WHERE id = $1`, [approval.id])).rows[0].status).toBe(
    'executed',
  );
  await s.slack.waitFor(() => textOfMessage(cardFor(s.slack, MANAGERS, approval.id)).includes('*Done:*'), CARD_MS);
});
