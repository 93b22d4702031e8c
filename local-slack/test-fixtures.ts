// Shared setup for the local-slack tests: a small workspace and real Bolt apps wired to it over HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { startLocalSlack } from './server.js';
import type { LocalSlack, LocalSlackOptions } from './types.js';

export const SECRET = 'local-test-signing-secret';
export const TOKEN = 'xoxb-local-test-token';
export const BOT_USER = 'U0BOT000001';
export const BOT_ID = 'B0BOT000001';
export const CUSTOMER = 'U0CUST00001';
export const MANAGER = 'U0MGR000001';
export const GUEST = 'U0GUEST0001';
export const SUPPORT = 'C0SUPPORT01';
export const MANAGERS = 'C0MANAGERS1';

export const workspace = {
  signingSecret: SECRET,
  botToken: TOKEN,
  botUserId: BOT_USER,
  botId: BOT_ID,
  users: [
    { id: CUSTOMER, name: 'carla', real_name: 'Carla Customer', role: 'customer' },
    { id: MANAGER, name: 'maria', real_name: 'Maria Manager', role: 'manager' },
    { id: GUEST, name: 'gus', real_name: 'Gus Guest', role: 'unlinked guest' },
  ],
  channels: [
    { id: SUPPORT, name: 'support' },
    { id: MANAGERS, name: 'managers' },
  ],
  userGroups: [{ id: 'S0MANAGERS1', handle: 'managers', users: [MANAGER] }],
} satisfies Omit<LocalSlackOptions, 'eventsUrls'>;

/** A port nobody listens on right now, so Bolt can be told the API URL before local-slack starts. */
export async function freePort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface BoltHandle {
  app: App;
  url: string;
  stop(): Promise<void>;
}

export async function startBolt(
  apiUrl: string,
  register: (app: App) => void,
  opts: { processBeforeResponse?: boolean } = {},
): Promise<BoltHandle> {
  const receiver = new HTTPReceiver({
    signingSecret: SECRET,
    processBeforeResponse: opts.processBeforeResponse ?? false,
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    token: TOKEN,
    botId: BOT_ID,
    botUserId: BOT_USER,
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: apiUrl, retryConfig: { retries: 0 } },
  });
  register(app);
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}/slack/events`, stop: () => app.stop().then(() => undefined) };
}

/** Starts Bolt apps (one per register fn) and a local workspace delivering to them. */
export async function startStack(
  registers: ((app: App) => void)[],
  opts: Partial<LocalSlackOptions> & { processBeforeResponse?: boolean } = {},
): Promise<{ slack: LocalSlack; bolts: BoltHandle[]; close(): Promise<void> }> {
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}/api/`;
  const bolts = await Promise.all(
    registers.map((r) => startBolt(apiUrl, r, { processBeforeResponse: opts.processBeforeResponse })),
  );
  const { processBeforeResponse: _p, ...rest } = opts;
  const slack = await startLocalSlack({ ...workspace, port, eventsUrls: bolts.map((b) => b.url), ...rest });
  return {
    slack,
    bolts,
    async close() {
      await Promise.all(bolts.map((b) => b.stop()));
      await slack.close();
    },
  };
}

/** A WebClient logger that keeps expected API errors out of the test output. */
export const quietLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
