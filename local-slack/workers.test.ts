// A second worker on this machine joins the running workspace instead of starting another: it learns the
// app's token and signing secret, and its events URL joins the round-robin until it leaves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachToLocalSlack } from './attach.js';
import { startLocalSlack } from './server.js';
import { CUSTOMER, SECRET, SUPPORT, TOKEN, workspace } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

let slack: LocalSlack;
const hits: string[] = [];
const endpoints: Server[] = [];

async function endpoint(name: string): Promise<string> {
  const s = createServer((req, res) => {
    hits.push(name);
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  endpoints.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/slack/events`;
}

beforeAll(async () => {
  slack = await startLocalSlack({ ...workspace, eventsUrls: [await endpoint('a')], rateLimits: false });
});
afterAll(async () => {
  await slack.close();
  for (const s of endpoints) s.close();
});

it('a worker attaches, gets the app credentials, receives its share of events, and detaches', async () => {
  const port = Number(new URL(slack.url).port);
  const attached = await attachToLocalSlack(port, await endpoint('b'));
  expect(attached).toMatchObject({ botToken: TOKEN, signingSecret: SECRET, url: slack.url, apiUrl: slack.apiUrl });
  hits.length = 0;
  for (let i = 0; i < 4; i++) await slack.postAsUser(CUSTOMER, SUPPORT, `hello ${i}`);
  expect(hits.sort()).toEqual(['a', 'a', 'b', 'b']);

  await attached!.detach();
  hits.length = 0;
  for (let i = 0; i < 3; i++) await slack.postAsUser(CUSTOMER, SUPPORT, `again ${i}`);
  expect(hits).toEqual(['a', 'a', 'a']);
});

it('nothing to attach to: undefined, whether the port is closed or something else answers', async () => {
  const other = createServer((_req, res) => res.writeHead(404).end('nope'));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  endpoints.push(other);
  expect(await attachToLocalSlack((other.address() as AddressInfo).port, 'http://127.0.0.1:1/e')).toBeUndefined();
});
