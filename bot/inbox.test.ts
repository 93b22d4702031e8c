// A worker that acked a customer's message and died before answering: Slack will not retry (it
// got its 2xx), so the inbox row is what lets another worker finish the turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentOn } from '../agent/testing/harness.js';
import { LOCAL_IDS } from './local-mode.js';
import { botRepliesIn, botTestModel, startBotStack, type BotStack } from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MARIA = 'U01CUS0001';
let s: BotStack;

beforeAll(async () => {
  s = await startBotStack();
});
afterAll(async () => {
  await s?.close();
});

/** A message that is in the channel but whose delivery was acked by a worker that then died. */
async function orphanedMessage(text: string, eventId: string) {
  // A delivery signed with the wrong secret is refused (401), so no worker handles it: the
  // message exists in the channel, and we record the inbox row a dying worker would have left.
  const post = await s.slack.postAsUser(MARIA, SUPPORT, text, { signingSecret: 'not-the-secret' });
  expect(post.status).toBe(401);
  const event = {
    type: 'message',
    user: MARIA,
    channel: SUPPORT,
    channel_type: 'channel',
    text,
    ts: post.ts,
    event_ts: post.ts,
  };
  await s.db.pool.query(
    `INSERT INTO slack_events (event_id, kind, status, payload, received_at)
     VALUES ($1, 'message', 'received', $2, now() - interval '5 minutes')`,
    [eventId, JSON.stringify(event)],
  );
  return post.ts;
}

describe('the inbox', () => {
  it('a message whose worker died is answered by the next sweep, once', async () => {
    const ts = await orphanedMessage('do you work on saturdays?', 'EvOrphan1');
    expect(botRepliesIn(s.slack, SUPPORT, ts)).toHaveLength(0);
    await s.workers[0]!.agent.service.sweep();
    const replies = await s.slack.waitFor(() => {
      const r = botRepliesIn(s.slack, SUPPORT, ts);
      return r.length ? r : undefined;
    });
    expect(replies.map((m) => m.text)).toEqual(['Answer: do you work on saturdays?']);
    expect((await s.db.pool.query(`SELECT status FROM slack_events WHERE event_id = 'EvOrphan1'`)).rows[0].status).toBe(
      'done',
    );
    await s.workers[0]!.agent.service.sweep();
    expect(botRepliesIn(s.slack, SUPPORT, ts)).toHaveLength(1);
  });

  it('a message answered but never posted (died after the turn) is posted without running the turn again', async () => {
    const ts = await orphanedMessage('what about sundays?', 'EvOrphan2');
    // The dead worker got as far as running the turn: it died before its replies reached Slack.
    const dead = await startAgentOn(s.db, s.clock, {
      model: botTestModel(),
      workerId: 'dead-worker',
      delivery: {
        deliver: async () => {
          throw new Error('the worker died before posting');
        },
        approvalsChanged: async () => undefined,
      },
    });
    const turn = await dead.agent.service.handleMessage({
      threadId: `slack:${SUPPORT}:${ts}`,
      customerId: 'cus_001',
      text: 'what about sundays?',
      source: 'slack',
      slack: { channel: SUPPORT, threadTs: ts, userId: MARIA },
      messageKey: 'EvOrphan2',
    });
    await dead.close();
    expect(turn.replies).toEqual(['Answer: what about sundays?']);
    const before = await s.db.pool.query(`SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = $1`, [
      `slack:${SUPPORT}:${ts}`,
    ]);
    await s.workers[0]!.agent.service.sweep();
    const replies = await s.slack.waitFor(() => {
      const r = botRepliesIn(s.slack, SUPPORT, ts);
      return r.length ? r : undefined;
    });
    expect(replies.map((m) => m.text)).toEqual(['Answer: what about sundays?']);
    const after = await s.db.pool.query(`SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = $1`, [
      `slack:${SUPPORT}:${ts}`,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n); // no second turn
  });
});
