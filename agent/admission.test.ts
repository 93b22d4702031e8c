import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase } from '../core/testing/test-database.js';
import { ManualClock } from '../core/clock.js';
import { TEST_NOW } from '../core/testing/constants.js';
import { say } from './testing/fixtures.js';
import { startAgentOn, type Harness } from './testing/harness.js';
import { textOf } from './window.js';

/*
 * "No admission control": 200 conversations in flight on one worker all ran at once and finished
 * together. A worker runs at most MAX_CONCURRENT_RUNS graphs; the rest wait in order, and past
 * MAX_QUEUED_RUNS a request is refused at once instead of piling up.
 */
class SlowModel extends BaseChatModel {
  inFlight = 0;
  peak = 0;
  started: string[] = [];
  finished: string[] = [];
  _llmType() {
    return 'slow';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const text = textOf(messages[messages.length - 1]!);
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    this.started.push(text);
    await new Promise((r) => setTimeout(r, 150));
    this.inFlight--;
    this.finished.push(text);
    const message = say(`answer to ${text}`);
    return { generations: [{ message, text: String(message.content) }] };
  }
}

const model = new SlowModel({});
let h: Harness;

beforeAll(async () => {
  const clock = new ManualClock(TEST_NOW);
  const db = await createSeededDatabase({ clock });
  h = await startAgentOn(db, clock, { model, maxConcurrentRuns: 2, maxQueuedRuns: 12 });
});
afterAll(async () => {
  await h?.close();
  await h?.db.drop();
});

describe('admission control', () => {
  it('runs at most MAX_CONCURRENT_RUNS turns at once; the others wait their turn and are all answered', async () => {
    const n = 12;
    const turns = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        h.agent.service.handleMessage({ threadId: `admit:${i}`, customerId: 'cus_005', text: `m${i}`, source: 'api' }),
      ),
    );
    expect(turns.map((t) => t.reply)).toEqual(Array.from({ length: n }, (_, i) => `answer to m${i}`));
    expect(model.peak).toBeGreaterThan(0);
    expect(model.peak).toBeLessThanOrEqual(2);
    expect(h.agent.service.load).toMatchObject({ active: 0, queued: 0 });
  });

  it('past MAX_QUEUED_RUNS waiting, a request is refused at once with `overloaded` and never run', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        h.agent.service.handleMessage({ threadId: `flood:${i}`, customerId: 'cus_005', text: `f${i}`, source: 'api' }),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBe(20 - 2 - 12);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'overloaded' });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(14);
  });
});
