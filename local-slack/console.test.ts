// The console page and its JSON routes, driven over HTTP against a stub app endpoint.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'node:querystring';
import { verifySlackRequest } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack } from './server.js';
import { CUSTOMER, MANAGER, MANAGERS, quietLogger, SECRET, SUPPORT, TOKEN, workspace } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

let slack: LocalSlack;
let stub: Server;
const received: Record<string, unknown>[] = [];
let nextReply = '';

beforeAll(async () => {
  // A stand-in app endpoint that checks Slack's signature and records payloads.
  stub = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      verifySlackRequest({
        signingSecret: SECRET,
        body,
        headers: {
          'x-slack-signature': String(req.headers['x-slack-signature']),
          'x-slack-request-timestamp': Number(req.headers['x-slack-request-timestamp']),
        },
      });
      const isForm = req.headers['content-type'] === 'application/x-www-form-urlencoded';
      received.push(isForm ? JSON.parse(String(parse(body).payload)) : JSON.parse(body));
      res.writeHead(200, nextReply ? { 'Content-Type': 'application/json' } : {});
      res.end(nextReply);
      nextReply = '';
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
  const port = (stub.address() as AddressInfo).port;
  slack = await startLocalSlack({ ...workspace, eventsUrls: [`http://127.0.0.1:${port}/slack/events`] });
});
afterAll(async () => {
  await slack.close();
  await new Promise<void>((r) => stub.close(() => r()));
});

const call = async (path: string, body: unknown) => {
  const res = await fetch(`${slack.url}/console/api/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
  return {
    status: res.status,
    json: (await res.json()) as { ok: boolean; result?: Record<string, unknown>; error?: string },
  };
};

describe('console page', () => {
  it('is served at / with the documented test ids and no HTML injection sinks', async () => {
    const res = await fetch(`${slack.url}/`);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    for (const id of ['user-picker', 'composer-input', 'composer-send', 'thread-composer-input', 'thread-panel']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    for (const prefix of [
      "'channel-'",
      "'message-'",
      "'button-'",
      "'thread-reply-'",
      "'modal-error-'",
      "testid: 'modal'",
      "testid: 'modal-submit'",
    ]) {
      expect(html).toContain(prefix);
    }
    expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!127)/);
  });

  it('has an inline script that parses', async () => {
    const html = await readFile(new URL('./console.html', import.meta.url), 'utf8');
    const script = html.slice(html.indexOf('<script>') + 8, html.lastIndexOf('</script>'));
    expect(() => new Function(script)).not.toThrow();
  });
});

describe('console JSON routes', () => {
  it('posts as the chosen user and reports state for that user', async () => {
    const posted = await call('post', { user: CUSTOMER, channel: SUPPORT, text: 'from the console' });
    expect(posted).toMatchObject({ status: 200, json: { ok: true, result: { status: 200 } } });
    expect(received.at(-1)).toMatchObject({
      type: 'event_callback',
      event: { type: 'message', text: 'from the console', user: CUSTOMER },
    });
    const state = (await (await fetch(`${slack.url}/console/api/state?user=${CUSTOMER}`)).json()) as Record<
      string,
      unknown
    >;
    expect((state.users as { id: string }[]).map((u) => u.id)).toEqual([CUSTOMER, MANAGER, 'U0GUEST0001']);
    expect((state.messages as Record<string, { text: string }[]>)[SUPPORT]?.at(-1)?.text).toBe('from the console');
    expect(state).toMatchObject({ modals: [], home: null, ephemerals: [] });
  });

  it('clicks, opens a modal, shows inline errors and closes it', async () => {
    const client = new WebClient(TOKEN, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    const card = await client.chat.postMessage({
      channel: MANAGERS,
      text: 'card',
      blocks: [
        {
          type: 'actions',
          block_id: 'act',
          elements: [{ type: 'button', action_id: 'edit', text: { type: 'plain_text', text: 'Edit' } }],
        },
      ],
    });
    const clicked = await call('click', { user: MANAGER, channel: MANAGERS, ts: card.ts, action_id: 'edit' });
    expect(clicked.json.result).toMatchObject({ status: 200 });
    const payload = received.at(-1) as { type: string; trigger_id: string; user: { id: string } };
    expect(payload).toMatchObject({ type: 'block_actions', user: { id: MANAGER } });
    await client.views.open({
      trigger_id: payload.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'm',
        notify_on_close: true,
        title: { type: 'plain_text', text: 'Edit' },
        submit: { type: 'plain_text', text: 'Save' },
        blocks: [
          {
            type: 'input',
            block_id: 'note',
            label: { type: 'plain_text', text: 'Note' },
            element: { type: 'plain_text_input', action_id: 'v' },
          },
        ],
      },
    });
    const view = slack.openViews(MANAGER)[0]!;
    nextReply = JSON.stringify({ response_action: 'errors', errors: { note: 'Too short' } });
    const submitted = await call('submit', { user: MANAGER, view_id: view.id, values: { note: { v: 'x' } } });
    expect(submitted.json.result).toMatchObject({ outcome: 'errors' });
    const state = (await (await fetch(`${slack.url}/console/api/state?user=${MANAGER}`)).json()) as {
      modals: { errors: unknown }[];
    };
    expect(state.modals[0]?.errors).toEqual({ note: 'Too short' });
    const closed = await call('close', { user: MANAGER, view_id: view.id });
    expect(closed.json.result).toEqual({ status: 200, notified: true });
    expect(slack.openViews(MANAGER)).toEqual([]);
    expect(received.at(-1)).toMatchObject({
      type: 'view_closed',
      is_cleared: false,
      view: { id: view.id, callback_id: 'm' },
    });
    expect(received.at(-1)).not.toHaveProperty('trigger_id');
  });

  it('fires app_home_opened and reports driver errors as 400', async () => {
    const home = await call('home', { user: CUSTOMER });
    expect(home.json.ok).toBe(true);
    expect(received.at(-1)).toMatchObject({ event: { type: 'app_home_opened', user: CUSTOMER, tab: 'home' } });
    const bad = await call('click', { user: MANAGER, channel: MANAGERS, ts: '1.2', action_id: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/no message/);
  });

  it('redirects permalinks into the console', async () => {
    const res = await fetch(`${slack.url}/archives/${SUPPORT}/p1700000000000100`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/#${SUPPORT}/1700000000.000100`);
  });
});
