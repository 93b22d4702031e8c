// A burst of decisions against a workspace that rate-limits card updates like Slack does: each decision is
// answered without waiting for its card, and every card still ends in its final state, never going back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_IDS } from './local-mode.js';
import { cardFor, hasButtons, startBotStack, textOfMessage, type BotStack } from './testing/stack.js';

const MANAGERS = LOCAL_IDS.managers;
const N = 20;
const KEY = 'burst-manager-key';
/** Far below what waiting on the cards takes (one update per approval alone is 8 s at the rate below). */
const ANSWER_BOUND_MS = 5000;

let s: BotStack;
beforeAll(async () => {
  // Tighter than Slack's defaults so twenty approvals are already a burst: 4 at once, then 2 a second.
  const rate = { perMinute: 120, burst: 4 };
  s = await startBotStack({
    rateLimits: { tiers: { 3: rate }, postMessagePerChannel: rate },
    config: { RATE_LIMIT_PER_MINUTE: '1000', MANAGER_API_KEY: KEY },
  });
});
afterAll(async () => {
  await s?.close();
});

async function post(path: string, body: unknown) {
  const t0 = performance.now();
  const res = await fetch(`${s.workers[0]!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: (await res.json()) as any, ms: performance.now() - t0 };
}

/** Where a card's text says its approval stands, in the ledger's order (pending < approved < done). */
function rank(text: string): number {
  if (/^Approval needed/.test(text)) return 0;
  if (/: approved$/.test(text)) return 1;
  if (/: done$/.test(text)) return 2;
  return -1;
}

it('twenty approvals in a burst are each answered at once, and every card ends done', async () => {
  const customers = Array.from({ length: N }, (_, i) => `cus_${String((i % 12) + 1).padStart(3, '0')}`);
  const chats = await Promise.all(
    customers.map((customer, i) => post('/chat', { customer, message: `ticket: burst item ${i}` })),
  );
  const ids = chats.map((c) => {
    expect(c.status).toBe(200);
    return c.body.approvals[0].id as string;
  });

  const decided = await Promise.all(ids.map((id) => post(`/approvals/${id}/approve`, {})));
  for (const d of decided) expect(d.body.approval?.status, JSON.stringify(d.body)).toBe('executed');
  const slowest = Math.max(...decided.map((d) => d.ms));
  expect(slowest).toBeLessThan(ANSWER_BOUND_MS);

  await s.slack.waitFor(
    () =>
      ids.every((id) => {
        const c = cardFor(s.slack, MANAGERS, id);
        return c && !hasButtons(c) && textOfMessage(c).includes('*Done:*');
      }),
    60_000,
  );
  // What each card showed, in the order Slack got it: never an older state after a newer one.
  const shown = new Map<string, number[]>();
  for (const c of s.slack.apiCalls()) {
    if (!c.ok || (c.method !== 'chat.update' && c.method !== 'chat.postMessage')) continue;
    const a = c.args as { channel?: string; ts?: string; text?: string; blocks?: unknown };
    const id = ids.find((x) => JSON.stringify(a.blocks ?? '').includes(x));
    if (!id || a.channel !== MANAGERS) continue;
    shown.set(id, [...(shown.get(id) ?? []), rank(a.text ?? '')]);
  }
  for (const id of ids) {
    const ranks = shown.get(id) ?? [];
    expect(ranks.at(-1)).toBe(2);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
  }
}, 120_000);

it('a card claimed by a worker that died is sent once its claim runs out, and a live claim is left alone', async () => {
  const id = (await post('/chat', { customer: 'cus_003', message: 'ticket: claimed then lost' })).body.approvals[0].id;
  const cards = s.workers[0]!.slack!.bot.deps.cards;
  await cards.idle();
  const card = await s.slack.waitFor(() => cardFor(s.slack, MANAGERS, id), 10_000);
  const updates = () =>
    s.slack.apiCalls().filter((c) => c.ok && c.method === 'chat.update' && (c.args as { ts?: string }).ts === card.ts)
      .length;
  const claim = (until: string) =>
    s.db.pool.query(
      `INSERT INTO card_outbox (approval_id, version, claimed_by, claimed_until)
       VALUES ($1, nextval('card_outbox_version'), 'worker-that-died', now() + $2::interval)`,
      [id, until],
    );
  await claim('1 minute');
  await cards.reconcile();
  expect(updates()).toBe(0);
  await s.db.pool.query(`DELETE FROM card_outbox WHERE approval_id = $1`, [id]);
  await claim('-1 second');
  await cards.reconcile();
  expect(updates()).toBe(1);
  expect((await s.db.pool.query(`SELECT 1 FROM card_outbox WHERE approval_id = $1`, [id])).rowCount).toBe(0);
}, 30_000);
