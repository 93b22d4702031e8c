// An Events API delivery is acknowledged only once it is stored: Slack retries what is not acked,
// so a database outage or text Postgres cannot hold must never turn into an acked, lost message.
// Real product, real signed HTTP from the local workspace, real Postgres behind a TCP proxy that
// the outage test cuts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_IDS } from './local-mode.js';
import { signSlackRequest } from '../local-slack/index.js';
import { botRepliesIn, startBotStack, type BotStack } from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MARIA = 'U01CUS0001';
const JAMES = 'U01CUS0002';
const CASEY = 'U01GST0001';

let s: BotStack;
beforeAll(async () => {
  // Retries come 50/100/200 ms after a failed attempt, like Slack's (which wait minutes).
  s = await startBotStack({ proxyDatabase: true });
});
afterAll(async () => {
  await s?.close();
});

const replyTo = (ts: string, ms = 5000) => s.slack.waitFor(() => botRepliesIn(s.slack, SUPPORT, ts)[0], ms);
const deliveriesOf = (eventId: string) => s.slack.deliveries().filter((d) => d.id === eventId);
const eventRow = async (eventId: string) =>
  (await s.db.pool.query(`SELECT status, payload FROM slack_events WHERE event_id = $1`, [eventId])).rows[0] as
    | { status: string; payload: { text?: string } | null }
    | undefined;
const nowSec = () => Math.floor(Date.now() / 1000);
/** The inbox row once its message has a visible answer (marked done just after the reply is posted). */
async function doneRow(eventId: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const row = await eventRow(eventId);
    if (row?.status === 'done' || Date.now() > deadline) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function signedPost(body: string, timestampSec = nowSec()) {
  const res = await fetch(`${s.workers[0]!.url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signSlackRequest(s.connection.signingSecret, body, timestampSec),
    },
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe('a database outage while a customer message arrives', () => {
  it("is not acked (5xx); Slack's retry after the outage is stored and answered, once", async () => {
    const warm = await s.slack.postAsUser(JAMES, SUPPORT, 'hello before the outage');
    await replyTo(warm.ts); // the worker's pool holds live connections, which the outage cuts

    await s.dbProxy!.pause();
    let post;
    try {
      post = await s.slack.postAsUser(MARIA, SUPPORT, 'do you clean carpets?');
    } finally {
      s.dbProxy!.resume(); // before the first retry is due (50 ms after the failed attempt)
    }
    expect(post.status).toBe(503);
    expect(s.dbProxy!.turnedAway).toBeGreaterThan(0); // the worker did try the database

    const reply = await replyTo(post.ts);
    expect(reply.text).toBe('Answer: do you clean carpets?');
    const attempts = deliveriesOf(post.event_id);
    expect(attempts[0]).toMatchObject({ status: 503 });
    expect(attempts.at(-1)).toMatchObject({ status: 200 });
    expect(attempts.at(-1)!.retryNum).toBeGreaterThanOrEqual(1);
    expect((await doneRow(post.event_id))?.status).toBe('done');
    // Later retries of the same event (none should come, but Slack may) change nothing.
    await s.slack.redeliver(post.event_id, { retryNum: 3, reason: 'http_error' });
    expect(botRepliesIn(s.slack, SUPPORT, post.ts)).toHaveLength(1);
  });
});

describe('a database that stops answering (a partition, not a refusal)', () => {
  it("is refused 5xx within Slack's 3 s; the INSERT that lands late is answered, once", async () => {
    const warm = await s.slack.postAsUser(JAMES, SUPPORT, 'hello before the partition');
    await replyTo(warm.ts); // the claim will go out on a pooled connection, and hang there

    await s.dbProxy!.pause('stall');
    let post;
    try {
      post = await s.slack.postAsUser(MARIA, SUPPORT, 'are you open on holidays?');
    } finally {
      s.dbProxy!.resume(); // the held INSERT now reaches Postgres
    }
    expect(post.status).toBe(503); // answered by the claim deadline, not by Slack's timeout
    expect(deliveriesOf(post.event_id)[0]!.error).toBeUndefined();

    const reply = await replyTo(post.ts);
    expect(reply.text).toBe('Answer: are you open on holidays?');
    expect((await doneRow(post.event_id))?.status).toBe('done');
    await s.slack.waitFor(() => deliveriesOf(post.event_id).some((d) => d.status === 200));
    await s.slack.redeliver(post.event_id, { retryNum: 3, reason: 'http_error' });
    expect(botRepliesIn(s.slack, SUPPORT, post.ts)).toHaveLength(1);
    const customerTurns = await s.db.pool.query(
      `SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = $1 AND role = 'customer'`,
      [`slack:${SUPPORT}:${post.ts}`],
    );
    expect(customerTurns.rows[0].n).toBe(1);
  });
});

describe('text Postgres cannot store', () => {
  it('a message with NUL is stored without it and answered', async () => {
    const post = await s.slack.postAsUser(MARIA, SUPPORT, 'hello\u0000 there');
    expect(post.status).toBe(200);
    expect((await replyTo(post.ts)).text).toBe('Answer: hello there');
    const row = await doneRow(post.event_id);
    expect(row).toMatchObject({ status: 'done', payload: { text: 'hello there' } });
  });

  it('a message with a lone surrogate is stored with U+FFFD and answered', async () => {
    const post = await s.slack.postAsUser(CASEY, SUPPORT, 'broken \uD83D emoji');
    expect(post.status).toBe(200);
    expect((await replyTo(post.ts)).text).toBe('Answer: broken \uFFFD emoji');
    expect(await doneRow(post.event_id)).toMatchObject({ status: 'done', payload: { text: 'broken \uFFFD emoji' } });
  });

  it('a message that is only NUL gets the normal "no text" answer', async () => {
    const post = await s.slack.postAsUser(MARIA, SUPPORT, '\u0000\u0000');
    expect(post.status).toBe(200);
    expect((await replyTo(post.ts)).text).toBe("I didn't catch any text in that message. What can I help you with?");
    expect((await doneRow(post.event_id))?.status).toBe('done');
  });
});

describe('request timestamps', () => {
  it('refuses a request signed 10 minutes in the future or the past, with nothing stored', async () => {
    for (const offset of [600, -600]) {
      const post = await s.slack.postAsUser(MARIA, SUPPORT, `ticket: signed ${offset} s off`, {
        timestampSec: nowSec() + offset,
      });
      expect(post.status, `offset ${offset}`).toBe(401);
      expect(await eventRow(post.event_id)).toBeUndefined();
    }
  });

  it('accepts a request signed 4 minutes in the future or the past', async () => {
    for (const offset of [240, -240]) {
      const post = await s.slack.postAsUser(MARIA, SUPPORT, `within ${offset}`, { timestampSec: nowSec() + offset });
      expect(post.status, `offset ${offset}`).toBe(200);
      expect((await replyTo(post.ts)).text).toBe(`Answer: within ${offset}`);
    }
  });

  it('refuses a missing, malformed or wrong-version signature', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    const good = signSlackRequest(s.connection.signingSecret, body, nowSec());
    const send = (headers: Record<string, string>) =>
      fetch(`${s.workers[0]!.url}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }).then((r) => r.status);
    expect(await send({})).toBe(401);
    expect(
      await send({ 'X-Slack-Request-Timestamp': good['X-Slack-Request-Timestamp'], 'X-Slack-Signature': 'v0=abc' }),
    ).toBe(401);
    expect(
      await send({
        'X-Slack-Request-Timestamp': good['X-Slack-Request-Timestamp'],
        'X-Slack-Signature': good['X-Slack-Signature'].replace('v0=', 'v1='),
      }),
    ).toBe(401);
    expect(await send({ 'X-Slack-Request-Timestamp': 'soon', 'X-Slack-Signature': good['X-Slack-Signature'] })).toBe(
      401,
    );
    expect(await send({ ...good })).toBe(200);
  });
});

describe('url_verification', () => {
  it('answers the challenge of a signed request', async () => {
    const res = await signedPost(JSON.stringify({ token: 't', challenge: 'ch4ll3nge', type: 'url_verification' }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ challenge: 'ch4ll3nge' });
  });
});
