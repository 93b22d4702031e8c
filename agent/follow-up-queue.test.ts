import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say } from './testing/fixtures.js';
import type { Reply } from './reply.js';
import { QUEUED_REPLY } from './service.js';
import { startAgentOn, startHarness, type Harness } from './testing/harness.js';
import { ScriptedModel } from './testing/scripted-model.js';
import { textOf } from './window.js';

/*
 * "A dead worker's lease drops follow-ups": a worker died holding a thread's lease; a follow-up in
 * that thread must not wait the lease out and be refused ("busy, send again") with its text lost.
 * It is queued durably, the customer is told, and it is answered once the lease is taken over.
 */
const model = new ScriptedModel((messages) => say(`answer to: ${textOf(messages[messages.length - 1]!)}`));
let a: Harness;
let b: Harness;
const delivered: { threadId: string; replies: string[] }[] = [];

beforeAll(async () => {
  a = await startHarness({ model, workerId: 'worker-a' });
  // Recorded: what the service delivers later; the immediate "queued" notice is checked on the turn.
  const delivery = {
    deliver: async (threadId: string, out: Reply[]) => {
      const replies = out.map((r) => r.text);
      if (replies.join() !== QUEUED_REPLY) delivered.push({ threadId, replies });
    },
    approvalsChanged: async () => undefined,
  };
  b = await startAgentOn(a.db, a.clock, { model, workerId: 'worker-b', leaseWaitMs: 500, delivery });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await a?.db.drop();
});

/** The lease a worker that died mid-run left behind (leases use wall time). */
const deadLease = (threadId: string, ms: number) =>
  a.db.pool.query(
    `INSERT INTO thread_leases (thread_id, holder, expires_at)
      VALUES ($1, 'dead-worker', now() + make_interval(secs => $2::float8 / 1000))`,
    [threadId, ms],
  );

describe('a follow-up in a thread whose worker died', () => {
  it('is queued at once (not refused), then answered by the sweeper once the lease has run out', async () => {
    const threadId = 'queue:1';
    await a.agent.service.handleMessage({ threadId, customerId: 'cus_003', text: 'hello', source: 'slack' });
    await deadLease(threadId, 3_000).catch(async () => {
      await a.db.pool.query(
        `UPDATE thread_leases SET holder = 'dead-worker', expires_at = now() + interval '3 seconds'
          WHERE thread_id = $1`,
        [threadId],
      );
    });
    const started = Date.now();
    const t = await b.agent.service.handleMessage({
      threadId,
      customerId: 'cus_003',
      text: 'are you open on saturdays?',
      source: 'slack',
      messageKey: 'Ev-q1',
    });
    expect(t.status).toBe('queued');
    expect(Date.now() - started).toBeLessThan(2_500); // did not wait the dead lease out
    expect(t.reply).toMatch(/right after|in a moment/i);
    // Nothing is lost while it waits: the text is stored.
    const queued = await a.db.pool.query(`SELECT count(*)::int AS n FROM message_queue WHERE thread_id = $1`, [
      threadId,
    ]);
    expect(queued.rows[0].n).toBe(1);

    // The lease runs out; any worker's sweeper answers the follow-up and delivers the reply.
    await new Promise((r) => setTimeout(r, 3_200));
    await b.agent.service.sweep({ graceMs: 60_000 });
    expect(delivered.find((d) => d.threadId === threadId)?.replies).toEqual(['answer to: are you open on saturdays?']);
    const left = await a.db.pool.query(`SELECT count(*)::int AS n FROM message_queue WHERE thread_id = $1`, [threadId]);
    expect(left.rows[0].n).toBe(0);
    const roles = await a.db.pool.query(
      `SELECT role, text FROM conversation_messages WHERE thread_id = $1 ORDER BY id`,
      [threadId],
    );
    expect(roles.rows.map((r) => `${r.role}: ${r.text}`)).toEqual([
      'customer: hello',
      'agent: answer to: hello',
      'customer: are you open on saturdays?',
      'agent: answer to: are you open on saturdays?',
    ]);
    // A second sweep does nothing more.
    await b.agent.service.sweep({ graceMs: 60_000 });
    expect(delivered.filter((d) => d.threadId === threadId)).toHaveLength(1);
  });

  it('a queued message is answered before a newer one in the same thread, in order', async () => {
    const threadId = 'queue:2';
    await deadLease(threadId, 1_500);
    const q = await b.agent.service.handleMessage({
      threadId,
      customerId: 'cus_004',
      text: 'first',
      source: 'slack',
      messageKey: 'Ev-q2a',
    });
    expect(q.status).toBe('queued');
    await new Promise((r) => setTimeout(r, 1_700));
    const t = await b.agent.service.handleMessage({
      threadId,
      customerId: 'cus_004',
      text: 'second',
      source: 'slack',
      messageKey: 'Ev-q2b',
    });
    expect(t.reply).toBe('answer to: second');
    expect(delivered.find((d) => d.threadId === threadId)?.replies).toEqual(['answer to: first']);
    const rows = await a.db.pool.query(
      `SELECT role, text FROM conversation_messages WHERE thread_id = $1 ORDER BY id`,
      [threadId],
    );
    expect(rows.rows.map((r) => r.text)).toEqual(['first', 'answer to: first', 'second', 'answer to: second']);
  });
});
