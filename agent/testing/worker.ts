/**
 * A separate OS process running the agent against a test database, driven by JSON lines on
 * stdin (one command per line) and answering JSON lines on stdout. Used by the cross-process,
 * race and crash tests: each worker is what a real deployment's worker is, minus Slack.
 */
import { createInterface } from 'node:readline';
import { Command } from '@langchain/langgraph';
import { ManualClock } from '../../core/clock.js';
import { loadConfig } from '../../core/config.js';
import { createPool } from '../../core/pg-pool.js';
import { TEST_NOW } from '../../core/testing/test-database.js';
import { startAgentOn } from './harness.js';
import { ScriptedModel } from './scripted-model.js';
import { call, isCustomer, lastEvent, lastOf, propose, say } from './fixtures.js';
import { textOf } from '../window.js';

const config = loadConfig();
const pool = createPool(config.DATABASE_URL!, { max: 5 });
const model = new ScriptedModel((messages) => {
  const event = lastEvent(messages);
  if (event) return say(`EVENT ${event.status} ${JSON.stringify(event.result ?? event.error ?? event.reason ?? null)}`);
  const last = lastOf(messages);
  if (isCustomer(last, /ticket/)) {
    return propose(
      call('create_ticket', {
        customer_id: 'cus_001',
        subject: textOf(last).slice(0, 100),
        description: textOf(last),
        category: 'general',
      }),
    );
  }
  return say('ok');
});
const h = await startAgentOn(
  { url: config.DATABASE_URL!, pool, name: 'worker', drop: async () => undefined },
  new ManualClock(TEST_NOW),
  {
    model,
    workerId: `worker-${process.pid}`,
    leaseSeconds: config.THREAD_LEASE_SECONDS,
  },
);

const ops: Record<string, (c: any) => Promise<unknown>> = {
  message: (c) =>
    h.agent.service.handleMessage({
      threadId: c.threadId,
      customerId: c.customerId ?? 'cus_001',
      text: c.text,
      source: 'api',
    }),
  decide: (c) =>
    h.agent.service.decide({
      approvalId: c.approvalId,
      approver: c.approver,
      decision: c.decision ?? 'approve',
      reason: c.reason,
    }),
  resume: (c) => h.agent.service.resumeApproval(c.approvalId),
  // Bypasses the thread lease on purpose: LangGraph's own at-least-once resume, to show the tool layer holds alone.
  raw_resume: (c) =>
    h.agent.graph.invoke(new Command({ resume: { kind: 'decision', approvalId: c.approvalId } }), {
      configurable: { thread_id: c.threadId },
    }),
  sweep: () => h.agent.service.sweep({ graceMs: 0 }),
};

process.stdout.write(JSON.stringify({ ready: true, pid: process.pid }) + '\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const cmd = JSON.parse(line);
  try {
    const result = await ops[cmd.op]!(cmd);
    process.stdout.write(JSON.stringify({ id: cmd.id, ok: true, result }) + '\n');
  } catch (err) {
    process.stdout.write(
      JSON.stringify({
        id: cmd.id,
        ok: false,
        error: { code: (err as { code?: string }).code, message: (err as Error).message },
      }) + '\n',
    );
  }
}
await h.close();
await pool.end();
