import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call, lastEvent, lastOf, propose, say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';

/*
 * The database work of one turn, counted statement by statement on the pool the agent and its
 * in-process tool server share: a guard against per-turn reads and checkpoint writes creeping
 * back (the checkpointer alone ran ~100 statements per message before it batched its rows).
 */

const model = new ScriptedModel((messages) => {
  const event = lastEvent(messages);
  if (event) return say(`Done: ${event.status}`);
  if (lastOf(messages).getType() === 'human')
    return propose(
      call('create_ticket', {
        customer_id: 'cus_001',
        subject: 'Dripping tap',
        description: 'It drips again',
        category: 'technical',
      }),
    );
  return say('ok');
});

let h: Harness;
const seen: string[] = [];
let counting = false;

/** Count every statement any client of this process sends while counting (the tool server is in-process). */
function countStatements() {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    if (counting) seen.push(typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text));
    return query.apply(this, a);
  };
  return () => {
    proto.query = query;
  };
}
let restore: () => void = () => {};

beforeAll(async () => {
  h = await startHarness({ model });
  restore = countStatements();
});
afterAll(async () => {
  restore();
  await h?.close();
  await h?.db.drop();
});

async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
  seen.length = 0;
  counting = true;
  try {
    await fn();
  } finally {
    counting = false;
  }
  return seen.length;
}

const checkpointer = (qs: string[]) => qs.filter((q) => /checkpoint/i.test(q)).length;
const isDeliveredMark = (q: string) => /^\s*UPDATE conversation_messages SET delivered_at/.test(q);

/** Which part of the product sent a statement: what the budgets below are made of. */
const KINDS: [string, RegExp][] = [
  ['checkpointer', /checkpoint/i],
  ['lease', /thread_leases/],
  ['follow-up queue', /message_queue/],
  ['transcript', /conversation_messages/],
  ['admission', /INSERT INTO conversations/],
  ['ledger', /approvals|audit_log/],
  ['transaction', /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/],
  ['help centre', /kb_/],
];
const kindOf = (q: string) => KINDS.find(([, re]) => re.test(q))?.[0] ?? 'tool reads and writes';

/** With PRINT_STATEMENTS=1: every statement in order, with its kind, to see where a budget goes. */
function print(label: string, qs: string[]) {
  if (!process.env.PRINT_STATEMENTS) return;
  const lines = qs.map(
    (q, i) => `${String(i + 1).padStart(3)} ${kindOf(q).padEnd(22)} ${q.replace(/\s+/g, ' ').slice(0, 90)}`,
  );
  console.log(`${label}: ${qs.length}\n${lines.join('\n')}`);
}

describe('statements per turn', () => {
  it('a write message and its approval stay within their budgets', async () => {
    const threadId = 'test:statements:1';
    const send = () =>
      h.agent.service.handleMessage({ threadId, customerId: 'cus_001', text: 'my tap drips again', source: 'api' });
    let turn!: Awaited<ReturnType<typeof send>>;
    const message = await statementsOf(async () => {
      turn = await send();
    });
    const messageCheckpointer = checkpointer(seen);
    const messageMarks = seen.filter(isDeliveredMark).length;
    print('message', seen);
    expect(turn.status).toBe('pending_approval');
    const approval = await statementsOf(() =>
      h.agent.service.decide({ approvalId: turn.pending[0]!.id, approver: 'slack:U01MGR0001', decision: 'approve' }),
    );
    const approvalCheckpointer = checkpointer(seen);
    const ownOutcomeMark = seen.filter((q) => /^\s*UPDATE approvals SET outcome_delivered_at/.test(q)).length;
    const approvalMarks = seen.filter(isDeliveredMark).length;
    const approvalReads = seen.filter((q) => /^\s*SELECT \* FROM approvals WHERE id = \$1/.test(q)).length;
    print('approval', seen);
    console.log(
      `statements: message ${message} (checkpointer ${messageCheckpointer}), ` +
        `approval ${approval} (checkpointer ${approvalCheckpointer})`,
    );
    // A message (three steps: ingest+plan, propose+respond, the interrupt): one statement per checkpoint,
    // which carries the writes of the step before it, the interrupt's writes, one read of the thread's
    // newest checkpoint, the prune in the lease's release (the stock saver: ~100). A decision's run is
    // checkpointed once, at its end.
    // The bench adds the HTTP API's and Slack's statements to these.
    expect(messageCheckpointer).toBeLessThanOrEqual(7);
    expect(approvalCheckpointer).toBeLessThanOrEqual(3);
    // Replies with nowhere to post (this harness has no channel) are recorded delivered, not marked after.
    expect(messageMarks + approvalMarks).toBe(0);
    // The plan reads the customer from the lease's statement, and the reply the pending requests
    // from the proposal's: neither is a statement of its own.
    expect(message).toBeLessThanOrEqual(19);
    // The outcome's "told" mark rides with the reply that tells it, not a commit of its own.
    expect(ownOutcomeMark).toBe(0);
    // The decision is brought into the conversation by the grant's claim, which execution takes on.
    expect(approvalReads).toBe(0);
    expect(approval).toBeLessThanOrEqual(16);
  });
});
