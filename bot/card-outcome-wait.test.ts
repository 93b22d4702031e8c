import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebClient } from '@slack/web-api';
import { Ledger, type Approval } from '../agent/approvals/ledger.js';
import { fixedClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { CardPublisher, OUTCOME_WAIT_MS } from './cards.js';

/*
 * A decision used to cost its card two updates (approved, then executed a few ms later), each a
 * Slack call against the channel's rate limit plus an outbox claim and settle. The worker that
 * records an approval runs its write at once, so the card waits a moment for the outcome.
 */
const clock = fixedClock(TEST_NOW);
let db: TestDatabase;
let ledger: Ledger;
let customerId: string;
let n = 0;

beforeAll(async () => {
  db = await createSeededDatabase({ clock });
  ledger = new Ledger(db.pool, clock, { policy: { kind: 'next_business_day_end' }, timeZone: TEST_TZ });
  customerId = (await db.pool.query<{ id: string }>(`SELECT id FROM customers ORDER BY id LIMIT 1`)).rows[0]!.id;
});
afterAll(async () => {
  await db?.drop();
});

function publisher(opts: { postMs?: number } = {}) {
  const calls: { method: string; text: string }[] = [];
  let ts = 0;
  const client = {
    chat: {
      postMessage: async (m: { text: string }) => {
        if (opts.postMs) await sleep(opts.postMs);
        calls.push({ method: 'postMessage', text: m.text });
        return { ok: true, channel: 'C0MANAGERS', ts: `1700000000.${String(++ts).padStart(6, '0')}` };
      },
      update: async (m: { text: string }) => {
        calls.push({ method: 'update', text: m.text });
        return { ok: true };
      },
      delete: async () => ({ ok: true }),
    },
  } as unknown as WebClient;
  const cards = new CardPublisher({
    pool: db.pool,
    ledger,
    clock,
    logger: silentLogger,
    timeZone: TEST_TZ,
    managersChannel: 'C0MANAGERS',
    client: () => client,
  });
  return { cards, calls };
}

async function approved(): Promise<Approval> {
  const { approval } = await ledger.propose({
    threadId: `test:outcome-wait:${++n}`,
    toolCallId: `call_${n}`,
    tool: 'update_customer',
    rawArgs: { customer_id: customerId, changes: { phone: `555-300-${1000 + n}` } },
    customerId,
    proposedBy: `customer:${customerId}`,
    requestText: 'new phone please',
  });
  return approval;
}

const executed = (id: string) =>
  db.pool.query(`UPDATE approvals SET status = 'executed', executed_at = now(), result = '{}' WHERE id = $1`, [id]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an approval card waits a moment for its outcome', () => {
  it('approved, then executed within the wait: the card is updated once, to the outcome', async () => {
    const { cards, calls } = publisher();
    const a = await approved();
    cards.kick();
    await cards.idle();
    expect(calls.map((c) => c.method)).toEqual(['postMessage']);
    const decided = await ledger.decide({ approvalId: a.id, approver: 'U0MANAGER', decision: 'approve' });
    cards.kick(decided.status === 'approved' ? OUTCOME_WAIT_MS : undefined);
    await sleep(20);
    await executed(a.id);
    cards.kick();
    await cards.idle();
    expect(calls.map((c) => c.method)).toEqual(['postMessage', 'update']);
  });

  it('decided while its card is still being posted: still one update, to the outcome', async () => {
    const { cards, calls } = publisher({ postMs: 80 });
    const a = await approved();
    cards.kick();
    await sleep(40); // the post is under way
    await ledger.decide({ approvalId: a.id, approver: 'U0MANAGER', decision: 'approve' });
    cards.kick(OUTCOME_WAIT_MS);
    await sleep(80);
    await executed(a.id);
    cards.kick();
    await cards.idle();
    expect(calls.map((c) => c.method)).toEqual(['postMessage', 'update']);
  });

  it('an outcome slower than the wait: the card shows the approval first, then the outcome', async () => {
    const { cards, calls } = publisher();
    const a = await approved();
    cards.kick();
    await cards.idle();
    await ledger.decide({ approvalId: a.id, approver: 'U0MANAGER', decision: 'approve' });
    cards.kick(OUTCOME_WAIT_MS);
    await sleep(OUTCOME_WAIT_MS + 150);
    await cards.idle();
    expect(calls.map((c) => c.method)).toEqual(['postMessage', 'update']);
    await executed(a.id);
    cards.kick();
    await cards.idle();
    expect(calls.map((c) => c.method)).toEqual(['postMessage', 'update', 'update']);
    expect(calls[1]!.text).not.toEqual(calls[2]!.text);
  });
});
