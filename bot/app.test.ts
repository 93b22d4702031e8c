// Building the app: configuration checks, and learning the bot's identity once, up front.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentService } from '../agent/service.js';
import { systemClock } from '../core/clock.js';
import { ConfigError, testConfig } from '../core/config.js';
import type { Pool } from '../core/pg-pool.js';
import { silentLogger } from '../core/logger.js';
import { createSlackBot, slackConnectionFromConfig } from './app.js';
import { localApiUrl, localConnection, startLocalWorkspace } from './local-mode.js';
import type { LocalSlack } from '../local-slack/index.js';
import { freePort } from './testing/stack.js';

describe('configuration', () => {
  it('a real workspace needs a managers channel and managers', () => {
    const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };
    expect(() => slackConnectionFromConfig(testConfig(base))).toThrow(ConfigError);
    try {
      slackConnectionFromConfig(testConfig(base));
    } catch (e) {
      expect((e as ConfigError).problems.map((p) => p.variable)).toEqual([
        'SLACK_MANAGERS_CHANNEL',
        'SLACK_MANAGER_IDS',
      ]);
    }
    const http = slackConnectionFromConfig(
      testConfig({ ...base, SLACK_MANAGERS_CHANNEL: 'C1', SLACK_MANAGER_GROUP_ID: 'S1' }),
    );
    expect(http).toMatchObject({ mode: 'http', managersChannel: 'C1', managerGroupId: 'S1', managerIds: [] });
    const socket = slackConnectionFromConfig(
      testConfig({ ...base, SLACK_APP_TOKEN: 'xapp-1', SLACK_MANAGERS_CHANNEL: 'C1', SLACK_MANAGER_IDS: 'U1, U2' }),
    );
    expect(socket).toMatchObject({ mode: 'socket', appToken: 'xapp-1', managerIds: ['U1', 'U2'] });
  });
});

describe('identity', () => {
  let slack: LocalSlack;
  const port = freePort();
  const connection = port.then((p) => localConnection({ apiUrl: localApiUrl(p) }));
  beforeAll(async () => {
    slack = await startLocalWorkspace(await connection, {
      port: await port,
      eventsUrls: ['http://127.0.0.1:9/slack/events'],
    });
  });
  afterAll(async () => slack?.close());

  const fakeAgent = () => ({ ledger: {} }) as unknown as AgentService;
  const opts = { config: testConfig(), pool: {} as Pool, logger: silentLogger, clock: systemClock };

  it('asks auth.test once when the bot ids are not configured, and refuses a bad token clearly', async () => {
    const c = await connection;
    const bot = await createSlackBot({
      ...opts,
      agent: fakeAgent(),
      connection: { ...c, mode: 'http', botUserId: undefined, botId: undefined },
    });
    expect(slack.apiCalls().filter((x) => x.method === 'auth.test')).toHaveLength(1);
    expect(bot.mode).toBe('http');
    await expect(
      createSlackBot({
        ...opts,
        agent: fakeAgent(),
        connection: { ...c, mode: 'http', botToken: 'xoxb-wrong', botUserId: undefined },
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    await bot.stop();
  });

  it('a configured SLACK_BOT_USER_ID is enough: no auth.test at all', async () => {
    const c = await connection;
    const before = slack.apiCalls().filter((x) => x.method === 'auth.test').length;
    const bot = await createSlackBot({
      ...opts,
      agent: fakeAgent(),
      connection: { ...c, mode: 'http', botUserId: c.botUserId, botId: undefined },
    });
    expect(slack.apiCalls().filter((x) => x.method === 'auth.test')).toHaveLength(before);
    await bot.stop();
  });

  it('Slack unreachable: fails fast with one clear message instead of retrying for half an hour', async () => {
    const c = await connection;
    const started = Date.now();
    const err = await createSlackBot({
      ...opts,
      agent: fakeAgent(),
      // Nothing listens on port 9 of this machine.
      connection: { ...c, mode: 'http', apiUrl: 'http://127.0.0.1:9/api/', botUserId: undefined },
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/cannot reach Slack/i);
  }, 30_000);

  it('offers the agent its delivery port and mounts only POST /slack/events', async () => {
    const agent = fakeAgent();
    const bot = await createSlackBot({ ...opts, agent, connection: await connection });
    expect(typeof bot.delivery.approvalsChanged).toBe('function');
    expect(typeof bot.delivery.deliver).toBe('function');
    const res = { writeHead: () => ({ end: () => undefined }) } as never;
    expect(await bot.handle({ url: '/approvals', method: 'GET', headers: {} } as never, res)).toBe(false);
    expect(await bot.handle({ url: '/slack/events', method: 'GET', headers: {} } as never, res)).toBe(true);
    await bot.stop();
  });
});
