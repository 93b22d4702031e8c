// Events API against a real Bolt app over HTTP: delivery, signature checks, retries, round-robin.
import type { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from './events.js';
import { signSlackRequest } from './signing.js';
import { CUSTOMER, GUEST, SECRET, sleep, startStack, SUPPORT } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

describe('events delivered to a real Bolt app', () => {
  let slack: LocalSlack;
  let boltUrl: string;
  let close: () => Promise<void>;
  const seen: { text: string; retryNum?: number }[] = [];
  const subtypes: (string | undefined)[] = [];

  beforeAll(async () => {
    const stack = await startStack([
      (app: App) => {
        app.event('message', async ({ event }) => {
          subtypes.push(event.subtype);
        });
        app.message(async ({ message, say, context }) => {
          if (message.subtype !== undefined || !('text' in message)) return;
          seen.push({ text: message.text ?? '', retryNum: context.retryNum });
          await say({ text: `echo: ${message.text}`, thread_ts: message.thread_ts ?? message.ts });
        });
      },
    ]);
    ({ slack, close } = stack);
    boltUrl = stack.bolts[0]!.url;
  });
  afterAll(() => close());

  it('delivers a user message and stores the bot reply in its thread', async () => {
    const { ts, status, event_id } = await slack.postAsUser(CUSTOMER, '#support', 'hello <b>there</b>');
    expect(status).toBe(200);
    expect(event_id).toMatch(/^Ev[A-Z0-9]+$/);
    const thread = await slack.waitFor(() => {
      const t = slack.messages(SUPPORT, { thread_ts: ts });
      return t.length === 2 && t;
    });
    expect(thread[1]).toMatchObject({
      text: 'echo: hello <b>there</b>',
      thread_ts: ts,
      bot_id: 'B0BOT000001',
      user: 'U0BOT000001',
    });
    expect(thread[0]).toMatchObject({ reply_count: 1, latest_reply: thread[1]!.ts });
    // The reply stays out of the channel's top level.
    expect(slack.messages(SUPPORT).map((m) => m.ts)).toEqual([ts]);
    expect(slack.apiCalls().at(-1)).toMatchObject({ method: 'chat.postMessage', ok: true });
  });

  it('a reply to a reply joins the root thread', async () => {
    const root = await slack.postAsUser(GUEST, SUPPORT, 'root');
    await slack.waitFor(() => slack.messages(SUPPORT, { thread_ts: root.ts }).length === 2);
    const botReply = slack.messages(SUPPORT, { thread_ts: root.ts })[1]!;
    const r = await slack.postAsUser(GUEST, SUPPORT, 'follow-up', { thread_ts: botReply.ts });
    const thread = await slack.waitFor(() => {
      const t = slack.messages(SUPPORT, { thread_ts: root.ts });
      return t.length === 4 && t;
    });
    expect(thread[2]).toMatchObject({ ts: r.ts, thread_ts: root.ts, parent_user_id: GUEST });
  });

  it('Bolt rejects a forged signature with 401 and nothing is processed', async () => {
    const before = { seen: seen.length, calls: slack.apiCalls().length };
    const res = await slack.postAsUser(CUSTOMER, SUPPORT, 'forged', { signingSecret: 'not-the-secret' });
    expect(res.status).toBe(401);
    await sleep(100);
    expect(seen.length).toBe(before.seen);
    expect(slack.apiCalls().length).toBe(before.calls);
    // Forgeries are not retried.
    expect(slack.deliveries().filter((d) => d.id === res.event_id)).toHaveLength(1);
  });

  it('Bolt rejects a stale timestamp (> 5 min) with 401', async () => {
    const before = seen.length;
    const res = await slack.postAsUser(CUSTOMER, SUPPORT, 'stale', {
      timestampSec: Math.floor(Date.now() / 1000) - 301,
    });
    expect(res.status).toBe(401);
    await sleep(100);
    expect(seen.length).toBe(before);
  });

  it('signSlackRequest produces headers Bolt accepts', async () => {
    const env = envelope(
      { teamId: 'T0LOCAL0001', appId: 'A0LOCAL0001', botId: 'B0BOT000001', botUserId: 'U0BOT000001', botToken: '' },
      {
        type: 'message',
        channel: SUPPORT,
        channel_type: 'channel',
        user: CUSTOMER,
        text: 'hand made',
        ts: '1700000000.000100',
        event_ts: '1700000000.000100',
      },
    );
    const body = JSON.stringify(env);
    const ok = await fetch(boltUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...signSlackRequest(SECRET, body, Math.floor(Date.now() / 1000)) },
      body,
    });
    expect(ok.status).toBe(200);
    await slack.waitFor(() => seen.some((s) => s.text === 'hand made'));
    const tampered = await fetch(boltUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...signSlackRequest(SECRET, body, Math.floor(Date.now() / 1000)) },
      body: body.replace('hand made', 'hand mady'),
    });
    expect(tampered.status).toBe(401);
  });

  it('redeliver sends the same event with X-Slack-Retry-Num', async () => {
    const { event_id } = await slack.postAsUser(CUSTOMER, SUPPORT, 'say it twice');
    const r = await slack.redeliver(event_id, { retryNum: 2, reason: 'http_timeout' });
    expect(r.status).toBe(200);
    await slack.waitFor(() => seen.filter((s) => s.text === 'say it twice').length === 2);
    expect(seen.filter((s) => s.text === 'say it twice').map((s) => s.retryNum)).toEqual([undefined, 2]);
  });

  it(
    'other bots’ messages and edits arrive as bot_message / message_changed; ' + 'the bot’s own replies are not echoed',
    async () => {
      subtypes.length = 0;
      await slack.postBotLikeMessage(SUPPORT, 'beep');
      const { ts } = await slack.postAsUser(GUEST, SUPPORT, 'typo');
      await slack.waitFor(() => slack.messages(SUPPORT, { thread_ts: ts }).length === 2);
      await slack.editMessage(GUEST, SUPPORT, ts, 'fixed');
      await slack.waitFor(() => subtypes.length === 3);
      expect(subtypes).toEqual(['bot_message', undefined, 'message_changed']);
      expect(slack.messages(SUPPORT).find((m) => m.ts === ts)).toMatchObject({
        text: 'fixed',
        edited: { user: GUEST },
      });
    },
  );

  it('DMs arrive with channel_type im on the user’s D channel', async () => {
    const { channel, ts } = await slack.sendDirectMessage(CUSTOMER, 'psst');
    expect(channel).toMatch(/^D/);
    await slack.waitFor(() => slack.messages(channel, { thread_ts: ts }).length === 2);
  });
});

describe('Slack-style retries against a slow endpoint', () => {
  it('re-delivers with X-Slack-Retry-Num / Reason when the app does not ack in time', async () => {
    const attempts: (number | undefined)[] = [];
    const stack = await startStack(
      [
        (app: App) => {
          app.message(async ({ context }) => {
            attempts.push(context.retryNum);
            // processBeforeResponse: the HTTP answer waits for this listener, like a FaaS deployment.
            if (context.retryNum === undefined) await sleep(1500);
          });
        },
      ],
      { processBeforeResponse: true, timing: { ackTimeoutMs: 800, retryDelaysMs: [0, 20, 20] } },
    );
    try {
      const { event_id, status } = await stack.slack.postAsUser(CUSTOMER, SUPPORT, 'slow');
      expect(status).toBe(0);
      const log = await stack.slack.waitFor(() => {
        const d = stack.slack.deliveries().filter((x) => x.id === event_id);
        return d.some((x) => x.status === 200) && d;
      });
      expect(log[0]).toMatchObject({ status: 0, error: 'http_timeout' });
      expect(log[1]).toMatchObject({ retryNum: 1, retryReason: 'http_timeout' });
      expect(log.at(-1)).toMatchObject({ status: 200, retryNum: log.length - 1 });
      expect(attempts[0]).toBeUndefined();
      expect(attempts.slice(1)).toEqual(log.slice(1).map((d) => d.retryNum));
    } finally {
      await stack.close();
    }
  });

  it('stops after three retries and honours X-Slack-No-Retry', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const failing = createServer((req, res) => {
      hits += 1;
      res.writeHead(500, req.url === '/no-retry' ? { 'X-Slack-No-Retry': '1' } : {});
      res.end();
    });
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', () => r()));
    const port = (failing.address() as { port: number }).port;
    const { startLocalSlack } = await import('./server.js');
    const { workspace } = await import('./test-fixtures.js');
    const slack = await startLocalSlack({
      ...workspace,
      eventsUrls: [`http://127.0.0.1:${port}/slack/events`, `http://127.0.0.1:${port}/no-retry`],
      timing: { retryDelaysMs: [0, 10, 10] },
    });
    try {
      const a = await slack.postAsUser(CUSTOMER, SUPPORT, 'boom', { via: 0 });
      const log = await slack.waitFor(() => {
        const d = slack.deliveries().filter((x) => x.id === a.event_id);
        return d.length === 4 && d;
      });
      expect(log.map((d) => [d.status, d.retryNum, d.retryReason])).toEqual([
        [500, undefined, undefined],
        [500, 1, 'http_error'],
        [500, 2, 'http_error'],
        [500, 3, 'http_error'],
      ]);
      const b = await slack.postAsUser(CUSTOMER, SUPPORT, 'boom', { via: 1 });
      await sleep(80);
      expect(slack.deliveries().filter((x) => x.id === b.event_id)).toHaveLength(1);
      expect(hits).toBe(5);
    } finally {
      await slack.close();
      await new Promise<void>((r) => failing.close(() => r()));
    }
  });
});

describe('round-robin across two Bolt workers', () => {
  it('alternates deliveries and lets a call pin a worker', async () => {
    const got: string[][] = [[], []];
    const worker = (i: number) => (app: App) => {
      app.message(async ({ message }) => {
        if ('text' in message && message.text) got[i]!.push(message.text);
      });
    };
    const stack = await startStack([worker(0), worker(1)]);
    try {
      for (const t of ['a', 'b', 'c', 'd']) await stack.slack.postAsUser(CUSTOMER, SUPPORT, t);
      await stack.slack.postAsUser(CUSTOMER, SUPPORT, 'pinned', { via: 1 });
      await stack.slack.waitFor(() => got[0]!.length + got[1]!.length === 5);
      expect(got[0]).toEqual(['a', 'c']);
      expect(got[1]).toEqual(['b', 'd', 'pinned']);
    } finally {
      await stack.close();
    }
  });
});
