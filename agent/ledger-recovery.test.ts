import { LeanPostgresSaver } from './lean-postgres-saver.js';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { ChannelVersions, Checkpoint, CheckpointMetadata, PendingWrite } from '@langchain/langgraph-checkpoint';
import type { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { TEST_TZ } from '../core/testing/test-database.js';
import { CompressedSerializer } from './compressed-serde.js';
import { buildGraph } from './graph.js';
import { AgentService } from './service.js';
import { call, count, lastEvent, lastOf, propose, say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';

/*
 * "An approved write can be lost for good": a run that dies after a node's writes were saved but
 * before the next checkpoint leaves LangGraph's `getState().next` empty although the decided
 * approval never ran. The ledger, not `next`, must decide what still has to run.
 */

/**
 * A worker that dies at its `n`-th step after being armed, a step being a checkpoint `put` or
 * `putWrites`, a ledger call or a tool call: that step fails and, from then on, nothing of that
 * worker reaches the checkpointer, the ledger or the tool server, as after a SIGKILL. Steps, not
 * puts alone: a decision's run is checkpointed once, at its end, so most of the points where a
 * worker can die are between a ledger change or a write and that one checkpoint.
 */
const worker = { countdown: 0, dead: false, steps: [] as string[] };
const dead = () => new Error('injected: this worker died');
/** One step of the worker: throws if it is dead or dies at this very step. */
function step(name: string) {
  if (worker.dead) throw dead();
  if (worker.countdown > 0) worker.steps.push(name);
  if (worker.countdown > 0 && --worker.countdown === 0) {
    worker.dead = true;
    throw dead();
  }
}
class DyingSaver extends LeanPostgresSaver {
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    versions: ChannelVersions,
  ) {
    step('checkpoint put');
    return super.put(config, checkpoint, metadata, versions);
  }
  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    step('checkpoint writes');
    return super.putWrites(config, writes, taskId);
  }
}
/** Every method call of `target` is a step. */
const mortal = <T extends object>(target: T, label: string): T =>
  new Proxy(target, {
    get(t, key, receiver) {
      const v = Reflect.get(t, key, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        try {
          step(`${label}.${String(key)}`);
        } catch (err) {
          return Promise.reject(err);
        }
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });

const echoEvents =
  (fallback: (m: ReturnType<typeof lastOf>) => AIMessage) => (messages: Parameters<typeof lastOf>[0]) => {
    const event = lastEvent(messages);
    if (event) return say(`EVENT ${event.status} ${JSON.stringify(event.result ?? event.error ?? null)}`);
    return fallback(lastOf(messages));
  };

const model = new ScriptedModel(
  echoEvents((last) =>
    last.getType() === 'human'
      ? propose(
          call('create_ticket', {
            customer_id: 'cus_001',
            subject: 'Dripping tap',
            description: 'It drips again',
            category: 'technical',
          }),
        )
      : say('noted'),
  ),
);

let h: Harness;
let service: AgentService;
let n = 0;

beforeAll(async () => {
  h = await startHarness({ model });
  const saver = new DyingSaver(h.db.pool, new CompressedSerializer());
  const ledger = mortal(h.agent.ledger, 'ledger');
  const deps = {
    pool: h.db.pool,
    tools: mortal(h.agent.tools, 'tools'),
    ledger,
    model,
    clock: h.clock,
    timeZone: TEST_TZ,
    logger: silentLogger,
    workerId: 'mortal',
  };
  service = new AgentService({
    pool: h.db.pool,
    graph: buildGraph(deps, saver),
    checkpoints: saver,
    ledger,
    clock: h.clock,
    logger: silentLogger,
    workerId: 'mortal',
    tools: deps.tools,
  });
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

async function proposeTicket() {
  const threadId = `test:recovery:${++n}`;
  const t = await service.handleMessage({
    threadId,
    customerId: 'cus_001',
    text: `my tap drips again (${n})`,
    source: 'api',
  });
  expect(t.status).toBe('pending_approval');
  return { threadId, approvalId: t.pending[0]!.id };
}

const tickets = (approvalId: string) => count(h.db.pool, 'tickets', 'approval_id = $1', [approvalId]);
const agentReplies = async (threadId: string) =>
  (
    await h.db.pool.query<{ text: string }>(
      `SELECT text FROM conversation_messages WHERE thread_id = $1 AND role = 'agent' ORDER BY id`,
      [threadId],
    )
  ).rows.map((r) => r.text);

describe('the ledger decides what still has to run', () => {
  /** The steps of a decision that dies nowhere: step 1 records it, the rest carry it through. */
  let steps: string[] = [];
  it('a decision carried through has the steps the tests below kill it at', async () => {
    const { approvalId } = await proposeTicket();
    worker.countdown = Number.MAX_SAFE_INTEGER;
    worker.steps = [];
    await service.decide({ approvalId, approver: 'slack:U01MGR0001', decision: 'approve' });
    worker.countdown = 0;
    steps = worker.steps;
    expect(steps[0]).toBe('ledger.decide');
    // The outcome is marked told by the statement that records the reply (listThreadWith).
    for (const s of ['tools.call', 'checkpoint put', 'ledger.listThreadWith']) expect(steps).toContain(s);
  });

  // One case per step, numbered up to a generous bound; a step the decision no longer has is skipped.
  for (let failAt = 2; failAt <= 16; failAt++) {
    it(
      `a worker dies at step #${failAt} after the decision: ` +
        'another run executes the write once and tells the customer',
      async (t) => {
        expect(steps.length, 'the steps were counted').toBeGreaterThan(5);
        if (failAt > steps.length) t.skip();
        const { threadId, approvalId } = await proposeTicket();
        worker.countdown = failAt;
        worker.steps = [];
        await service.decide({ approvalId, approver: 'slack:U01MGR0001', decision: 'approve' }).catch(() => undefined);
        expect(worker.dead, `died at ${steps[failAt - 1]}`).toBe(true);
        expect((await h.agent.ledger.get(approvalId))!.status).not.toBe('pending');
        worker.dead = false;
        worker.countdown = 0;
        // The resume died part-way. Whatever LangGraph's `next` says now, the sweeper must finish it.
        await service.sweep({ graceMs: 0 });
        await service.sweep({ graceMs: 0 });
        const a = (await h.agent.ledger.get(approvalId))!;
        expect(a.status).toBe('executed');
        expect(await tickets(approvalId)).toBe(1);
        const replies = await agentReplies(threadId);
        expect(replies.some((r) => /EVENT executed/.test(r))).toBe(true);
        expect(a.outcome_delivered_at).not.toBeNull();
        // And again: nothing more happens.
        await service.sweep({ graceMs: 0 });
        expect(await tickets(approvalId)).toBe(1);
        expect((await agentReplies(threadId)).filter((r) => /EVENT executed/.test(r))).toHaveLength(1);
      },
    );
  }
});
