import { AIMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointBytes } from './checkpoint-size.js';
import { call, count, lastEvent, lastOf, propose, say } from './testing/fixtures.js';
import { startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';
import { CHECKPOINTS_KEPT } from './service.js';

/*
 * Old checkpoints of a thread are pruned after each turn, so a long thread's checkpoint bytes stay
 * bounded, while the newest checkpoint (the one a pending approval's interrupt resumes from) and
 * everything it references survive: the approval is decided and executed once after many turns.
 */

const model = new ScriptedModel((messages) => {
  const last = lastOf(messages);
  const event = lastEvent(messages);
  if (event) return say(`EVENT ${event.status}`);
  if (last.getType() === 'human' && /ticket/.test(String(last.content)))
    return propose(
      call('create_ticket', {
        customer_id: 'cus_001',
        subject: 'Dripping tap',
        description: 'It drips again',
        category: 'technical',
      }),
    );
  return new AIMessage({ content: `noted: ${String(last.content).slice(0, 40)}` });
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ model });
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

const checkpoints = async (threadId: string) =>
  (await h.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1`, [threadId]))
    .rows[0]!.n;
/** Blobs no remaining checkpoint references (must be none after a prune). */
const orphanBlobs = async (threadId: string) =>
  (
    await h.db.pool.query(
      `SELECT b.channel, b.version FROM checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
         SELECT 1 FROM checkpoints c WHERE c.thread_id = b.thread_id
           AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
      [threadId],
    )
  ).rowCount;

describe('checkpoint pruning', () => {
  it('keeps a thread to its newest checkpoints, and a pending approval survives many turns', async () => {
    const threadId = 'test:prune:1';
    const send = (text: string) =>
      h.agent.service.handleMessage({ threadId, customerId: 'cus_001', text, source: 'api' });
    const first = await send('please open a ticket for my tap');
    expect(first.status).toBe('pending_approval');
    const approvalId = first.pending[0]!.id;

    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await send(`question number ${i} about opening hours`);
      expect(t.status).toBe('pending_approval');
      expect(await checkpoints(threadId)).toBeLessThanOrEqual(CHECKPOINTS_KEPT);
      expect(await orphanBlobs(threadId)).toBe(0);
      sizes.push(await checkpointBytes(h.db.pool, threadId));
    }
    // Bounded: the twelfth turn's total is no bigger than the fourth's by more than noise.
    expect(sizes[11]!).toBeLessThan(sizes[3]! * 1.5);

    const { approval, turn } = await h.agent.service.decide({
      approvalId,
      approver: 'slack:U01MGR0001',
      decision: 'approve',
    });
    expect(approval.status).toBe('executed');
    expect(turn?.replies.join(' ')).toMatch(/EVENT executed/);
    expect(await count(h.db.pool, 'tickets', 'approval_id = $1', [approvalId])).toBe(1);
    expect(await checkpoints(threadId)).toBeLessThanOrEqual(CHECKPOINTS_KEPT);

    // The thread goes on normally after the prune.
    const after = await send('thanks, one more question');
    expect(after.status).toBe('answered');
    expect(after.reply).toMatch(/noted/);
  });

  it('prunes nothing of another thread', async () => {
    const a = 'test:prune:a';
    const b = 'test:prune:b';
    await h.agent.service.handleMessage({ threadId: a, customerId: 'cus_001', text: 'hello', source: 'api' });
    const before = await checkpoints(a);
    for (let i = 0; i < 3; i++)
      await h.agent.service.handleMessage({ threadId: b, customerId: 'cus_001', text: `hi ${i}`, source: 'api' });
    expect(await checkpoints(a)).toBe(before);
  });
});
