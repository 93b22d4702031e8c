// Web API behaviour checked with Slack's own client (form-encoded) and raw JSON requests.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack } from './server.js';
import { CUSTOMER, freePort, MANAGER, MANAGERS, quietLogger, SUPPORT, TOKEN, workspace } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

let slack: LocalSlack;
let client: WebClient;

beforeAll(async () => {
  // Nothing listens there: these tests only talk to the Web API.
  slack = await startLocalSlack({
    ...workspace,
    eventsUrls: [`http://127.0.0.1:${await freePort()}/slack/events`],
    retryOnFailure: false,
  });
  client = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: quietLogger });
});
afterAll(() => slack.close());

const raw = async (method: string, body: string, headers: Record<string, string>) =>
  (await (await fetch(`${slack.apiUrl}${method}`, { method: 'POST', body, headers })).json()) as Record<
    string,
    unknown
  >;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => ({ error: 'no error' }),
    (e: { data?: Record<string, unknown> }) => e.data ?? {},
  );

describe('auth and transport', () => {
  it('checks the bearer token like Slack', async () => {
    expect(await raw('auth.test', '', {})).toEqual({ ok: false, error: 'not_authed' });
    expect(await raw('auth.test', '', { Authorization: 'Bearer xoxb-wrong' })).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect(
      await raw('auth.test', `token=${TOKEN}`, { 'Content-Type': 'application/x-www-form-urlencoded' }),
    ).toMatchObject({ ok: true });
    // JSON bodies cannot carry the token.
    expect(await raw('auth.test', JSON.stringify({ token: TOKEN }), { 'Content-Type': 'application/json' })).toEqual({
      ok: false,
      error: 'not_authed',
    });
    expect(await raw('nope.nope', '', { Authorization: `Bearer ${TOKEN}` })).toEqual({
      ok: false,
      error: 'unknown_method',
    });
  });

  it('auth.test identifies the bot', async () => {
    expect(await client.auth.test()).toMatchObject({
      ok: true,
      user_id: 'U0BOT000001',
      bot_id: 'B0BOT000001',
      team_id: 'T0LOCAL0001',
    });
  });

  it('accepts JSON bodies with structured blocks and form bodies with JSON-string blocks', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    const json = await raw('chat.postMessage', JSON.stringify({ channel: SUPPORT, text: 'json', blocks }), {
      'Content-Type': 'application/json; charset=utf-8',
      Authorization: `Bearer ${TOKEN}`,
    });
    expect(json).toMatchObject({ ok: true, channel: SUPPORT, message: { text: 'json', bot_id: 'B0BOT000001' } });
    const form = await client.chat.postMessage({ channel: '#support', text: 'form', blocks });
    expect(form).toMatchObject({ ok: true, channel: SUPPORT });
    expect(slack.messages(SUPPORT).at(-1)?.blocks?.[0]).toMatchObject({
      type: 'section',
      block_id: expect.any(String),
    });
    const bad = await raw('chat.postMessage', `channel=${SUPPORT}&text=x&blocks=not-json`, {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Bearer ${TOKEN}`,
    });
    expect(bad).toEqual({ ok: false, error: 'invalid_blocks_format' });
  });

  it('records calls without the token', async () => {
    const last = slack.apiCalls().at(-1)!;
    expect(last).toMatchObject({ method: 'chat.postMessage', ok: false, error: 'invalid_blocks_format' });
    expect(JSON.stringify(slack.apiCalls())).not.toContain(TOKEN);
  });
});

describe('chat.*', () => {
  it('rejects what Slack rejects', async () => {
    const btn = (text: string, id = 'a') => ({
      type: 'button' as const,
      action_id: id,
      text: { type: 'plain_text' as const, text },
    });
    const fifty1 = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(await failure(client.chat.postMessage({ channel: SUPPORT, text: 'x', blocks: fifty1 }))).toMatchObject({
      error: 'invalid_blocks',
      errors: ['must be less than 51 items [json-pointer:/blocks]'],
    });
    expect(
      await failure(
        client.chat.postMessage({
          channel: SUPPORT,
          text: 'x',
          blocks: [{ type: 'actions' as const, elements: [btn('y'.repeat(76))] }],
        }),
      ),
    ).toMatchObject({ error: 'invalid_blocks' });
    const dup = [
      { type: 'divider', block_id: 'same' },
      { type: 'divider', block_id: 'same' },
    ];
    expect(await failure(client.chat.postMessage({ channel: SUPPORT, text: 'x', blocks: dup }))).toMatchObject({
      error: 'invalid_blocks',
    });
    expect(await failure(client.chat.postMessage({ channel: SUPPORT, text: 'x'.repeat(40001) }))).toMatchObject({
      error: 'msg_too_long',
    });
    expect(await failure(client.chat.postMessage({ channel: 'C0NOPE00001', text: 'x' }))).toMatchObject({
      error: 'channel_not_found',
    });
    expect(await failure(client.chat.postMessage({ channel: SUPPORT, text: '' }))).toMatchObject({ error: 'no_text' });
    expect(
      await failure(client.chat.postMessage({ channel: SUPPORT, text: 'x', thread_ts: 'yesterday' })),
    ).toMatchObject({ error: 'invalid_thread_ts' });
  });

  it('chat.update: only the bot’s own messages; omitted blocks are kept, [] removes them', async () => {
    const { ts } = await slack.postAsUser(CUSTOMER, SUPPORT, 'my words');
    expect(await failure(client.chat.update({ channel: SUPPORT, ts, text: 'edited' }))).toMatchObject({
      error: 'cant_update_message',
    });
    expect(await failure(client.chat.update({ channel: SUPPORT, ts: '1111111111.000001', text: 'x' }))).toMatchObject({
      error: 'message_not_found',
    });
    const posted = await client.chat.postMessage({ channel: MANAGERS, text: 'card', blocks: [{ type: 'divider' }] });
    await client.chat.update({ channel: MANAGERS, ts: posted.ts!, text: 'card v2' });
    const msg = () => slack.messages(MANAGERS).find((m) => m.ts === posted.ts)!;
    expect(msg()).toMatchObject({ text: 'card v2', blocks: [{ type: 'divider' }] });
    await client.chat.update({ channel: MANAGERS, ts: posted.ts!, text: 'card v3', blocks: [] });
    expect(msg().blocks).toBeUndefined();
    expect(msg().edited).toBeDefined();
  });

  it('stores text as sent, including markup-looking text', async () => {
    const text = '<script>alert(1)</script> & *bold* <@U0CUST00001>';
    await client.chat.postMessage({ channel: SUPPORT, text });
    expect(slack.messages(SUPPORT).at(-1)?.text).toBe(text);
  });

  it('postEphemeral, getPermalink, threads and the assistant status', async () => {
    const root = await client.chat.postMessage({ channel: SUPPORT, text: 'root' });
    const eph = await client.chat.postEphemeral({ channel: SUPPORT, user: MANAGER, text: 'psst' });
    expect(slack.ephemerals(MANAGER).at(-1)).toMatchObject({ ts: eph.message_ts, text: 'psst', channel: SUPPORT });
    expect(
      await failure(client.chat.postEphemeral({ channel: SUPPORT, user: 'U0NOBODY001', text: 'x' })),
    ).toMatchObject({ error: 'user_not_found' });
    const link = await client.chat.getPermalink({ channel: SUPPORT, message_ts: root.ts! });
    expect(link.permalink).toBe(`${slack.url}/archives/${SUPPORT}/p${root.ts!.replace('.', '')}`);
    await client.assistant.threads.setStatus({ channel_id: SUPPORT, thread_ts: root.ts!, status: 'is working on it…' });
    expect(slack.threadStatus(SUPPORT, root.ts!)).toBe('is working on it…');
    await client.chat.postMessage({ channel: SUPPORT, text: 'done', thread_ts: root.ts! });
    expect(slack.threadStatus(SUPPORT, root.ts!)).toBeUndefined();
    const replies = await client.conversations.replies({ channel: SUPPORT, ts: root.ts! });
    expect(replies.messages?.map((m) => m.text)).toEqual(['root', 'done']);
  });

  it('reactions.add / remove', async () => {
    const { ts } = await slack.postAsUser(CUSTOMER, SUPPORT, 'react to me');
    await client.reactions.add({ channel: SUPPORT, timestamp: ts, name: 'eyes' });
    expect(await failure(client.reactions.add({ channel: SUPPORT, timestamp: ts, name: 'eyes' }))).toMatchObject({
      error: 'already_reacted',
    });
    expect(slack.messages(SUPPORT).find((m) => m.ts === ts)?.reactions).toEqual([
      { name: 'eyes', users: ['U0BOT000001'], count: 1 },
    ]);
    await client.reactions.remove({ channel: SUPPORT, timestamp: ts, name: 'eyes' });
    expect(await failure(client.reactions.remove({ channel: SUPPORT, timestamp: ts, name: 'eyes' }))).toMatchObject({
      error: 'no_reaction',
    });
    expect(
      await failure(client.reactions.add({ channel: SUPPORT, timestamp: '1000000000.000001', name: 'eyes' })),
    ).toMatchObject({ error: 'message_not_found' });
  });
});

describe('lookups', () => {
  it('users.info, conversations.info, usergroups.users.list', async () => {
    expect((await client.users.info({ user: CUSTOMER })).user).toMatchObject({
      id: CUSTOMER,
      name: 'carla',
      real_name: 'Carla Customer',
      is_bot: false,
    });
    expect(await failure(client.users.info({ user: 'U0NOBODY001' }))).toMatchObject({ error: 'user_not_found' });
    expect((await client.conversations.info({ channel: MANAGERS })).channel).toMatchObject({
      id: MANAGERS,
      name: 'managers',
      is_channel: true,
    });
    expect(await failure(client.conversations.info({ channel: 'C0NOPE00001' }))).toMatchObject({
      error: 'channel_not_found',
    });
    expect((await client.usergroups.users.list({ usergroup: 'S0MANAGERS1' })).users).toEqual([MANAGER]);
    expect(await failure(client.usergroups.users.list({ usergroup: 'S0NOPE00001' }))).toMatchObject({
      error: 'no_such_subteam',
    });
  });
});

describe('views.*', () => {
  const home = (text: string) => ({
    type: 'home' as const,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  });

  it('publishes and updates App Home with hash protection', async () => {
    const first = await client.views.publish({ user_id: CUSTOMER, view: home('v1') });
    const view = first.view as { id: string; hash: string };
    expect(slack.homeView(CUSTOMER)?.id).toBe(view.id);
    const second = await client.views.publish({ user_id: CUSTOMER, view: home('v2'), hash: view.hash });
    expect((second.view as { id: string }).id).toBe(view.id);
    expect(await failure(client.views.publish({ user_id: CUSTOMER, view: home('v3'), hash: view.hash }))).toMatchObject(
      { error: 'hash_conflict' },
    );
    expect(
      await failure(client.views.update({ view_id: view.id, view: home('v4'), hash: 'stale.hash' })),
    ).toMatchObject({ error: 'hash_conflict' });
    await client.views.update({ view_id: view.id, view: home('v5') });
    expect(JSON.stringify(slack.homeView(CUSTOMER)?.blocks)).toContain('v5');
  });

  it('reports missing views and invalid views', async () => {
    expect(await failure(client.views.update({ view_id: 'V0NOPE00001', view: home('x') }))).toMatchObject({
      error: 'not_found',
    });
    expect(await failure(client.views.update({ external_id: 'nope', view: home('x') }))).toMatchObject({
      error: 'not_found',
    });
    const bad = await failure(
      client.views.open({
        trigger_id: '1.2.3',
        view: { type: 'modal', title: { type: 'plain_text', text: 't'.repeat(25) }, blocks: [] },
      }),
    );
    expect(bad).toMatchObject({
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'] },
    });
    expect(
      await failure(
        client.views.open({
          trigger_id: '1.2.3',
          view: { type: 'modal', title: { type: 'plain_text', text: 't' }, blocks: [] },
        }),
      ),
    ).toMatchObject({ error: 'invalid_trigger_id' });
    expect(
      await failure(
        client.views.publish({
          user_id: CUSTOMER,
          view: { type: 'home', blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) },
        }),
      ),
    ).toMatchObject({ error: 'invalid_arguments' });
  });
});
