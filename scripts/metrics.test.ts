import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { call, lastEvent, propose, say } from '../agent/testing/fixtures.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { eventually } from '../agent/testing/tool-server-children.js';
import { LOCAL_IDS } from '../bot/local-mode.js';
import { DEMO_SLACK_USERS } from '../schema/demo.js';
import { createOpsEndpoints } from './ops-endpoints.js';
import { startProduct, type Product } from './product.js';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The Prometheus text format, as a scraper reads it: one sample per line, comments skipped. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);

let db: TestDatabase;
let product: Product;
let dataDir: string;

const model = new ScriptedModel((messages) => {
  if (lastEvent(messages)) return say('Your ticket is open.');
  const text = String(messages[messages.length - 1]!.content);
  return /ticket/.test(text)
    ? propose(
        call('create_ticket', { customer_id: 'cus_014', subject: 'Gutter', description: text, category: 'general' }),
      )
    : say('We are open weekdays 8 to 6.');
});

const scrape = async (url = `${product.url}/metrics`, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const chat = async (message: string) => {
  const res = await fetch(`${product.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customer: 'cus_014', message }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { status: string };
};

beforeAll(async () => {
  db = await createSeededDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'metrics-test-'));
  product = await startProduct({
    config: testConfig({
      DATABASE_URL: db.url,
      SEED_DEMO: 'false',
      FIXED_NOW: TEST_NOW,
      BUSINESS_TIMEZONE: TEST_TZ,
      LOCAL_SLACK_PORT: '0',
      DATA_DIR: dataDir,
    }),
    logger: silentLogger,
    clock: fixedClock(TEST_NOW),
    port: 0,
    model,
    slack: { cueDelayMs: 60_000 },
  });
}, 60_000);
afterAll(async () => {
  await product?.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('/metrics', () => {
  it('serves the Prometheus text format with the process metrics, no key on a loopback bind', async () => {
    const r = await scrape();
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/plain');
    const samples = parseExposition(r.text);
    expect(sum(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'support_agent_admission_queue_depth')).toBe(true);
  });

  it('counts move after a chat: HTTP by route and status, graph runs, tool calls, their latency', async () => {
    const before = parseExposition((await scrape()).text);
    await chat('What are your opening hours?');
    await fetch(`${product.url}/approvals/abc/approve`, { method: 'POST' });
    const after = parseExposition((await scrape()).text);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sum(after, name, labels) - sum(before, name, labels);
    expect(delta('support_agent_http_requests_total', { route: '/chat', method: 'POST', status: '200' })).toBe(1);
    // A path with an id is counted under its template, never as itself.
    expect(delta('support_agent_http_requests_total', { route: '/approvals/:id/approve' })).toBe(1);
    expect(after.some((s) => s.labels.route?.includes('abc'))).toBe(false);
    // The previous scrape is counted once its answer was sent.
    expect(delta('support_agent_http_requests_total', { route: '/metrics', status: '200' })).toBe(1);
    expect(delta('support_agent_graph_runs_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(delta('support_agent_graph_run_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(delta('support_agent_tool_calls_total', { tool: 'search_knowledge_base', outcome: 'ok' })).toBe(1);
    expect(delta('support_agent_tool_call_duration_seconds_count', { tool: 'search_knowledge_base' })).toBe(1);
  });

  it('reads approvals by status from Postgres at scrape time', async () => {
    const before = parseExposition((await scrape()).text);
    expect(sum(before, 'support_agent_approvals', { status: 'executed' })).toBe(0);
    expect(await chat('Please open a ticket about my gutter')).toMatchObject({ status: 'pending_approval' });
    const pending = Number(
      (await db.pool.query(`SELECT count(*) AS n FROM approvals WHERE status = 'pending'`)).rows[0].n,
    );
    expect(pending).toBeGreaterThan(0);
    // The gauge is cached for a few seconds per worker: it catches up, it never invents.
    await eventually(
      'the approvals gauge to show the pending approval',
      async () =>
        sum(parseExposition((await scrape()).text), 'support_agent_approvals', { status: 'pending' }) === pending
          ? true
          : undefined,
      15_000,
    );
  }, 30_000);

  it('counts Slack events as they arrive', async () => {
    const before = parseExposition((await scrape()).text);
    await product.slack!.local!.postAsUser(DEMO_SLACK_USERS[0]!.id, LOCAL_IDS.support, 'Hello there');
    await eventually('the Slack event to be counted', async () => {
      const after = parseExposition((await scrape()).text);
      const labels = { type: 'event_callback', event: 'message' };
      return sum(after, 'support_agent_slack_events_received_total', labels) >
        sum(before, 'support_agent_slack_events_received_total', labels)
        ? true
        : undefined;
    });
  });
});

describe('/metrics beyond loopback', () => {
  // The endpoint as a non-loopback bind configures it, served on loopback so the test exposes nothing.
  const serve = async (config: Record<string, string>) => {
    const ops = createOpsEndpoints({
      config: testConfig({ HOST: '0.0.0.0', API_KEY: 'client-key-123456', ...config }),
      pool: db.pool,
      tools: product.agent.tools,
      logger: silentLogger,
      slack: () => false,
      closing: () => false,
    });
    const server: Server = createServer((req, res) => {
      void ops.handle(req, res).then((handled) => handled || res.writeHead(404).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
  };

  it('is closed by default: 403 without METRICS_TOKEN or a manager key', async () => {
    const s = await serve({});
    try {
      const r = await scrape(s.url);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: 'metrics_disabled' } });
    } finally {
      await s.close();
    }
  });

  it('takes METRICS_TOKEN or a manager key, refuses no key, a wrong one and the client key', async () => {
    const s = await serve({ METRICS_TOKEN: 'metrics-token-abcdef', MANAGER_API_KEY: 'manager-key-abcdef' });
    try {
      expect((await scrape(s.url)).status).toBe(401);
      expect((await scrape(s.url, { authorization: 'Bearer wrong-token' })).status).toBe(401);
      expect((await scrape(s.url, { authorization: 'Bearer client-key-123456' })).status).toBe(401);
      const byToken = await scrape(s.url, { authorization: 'Bearer metrics-token-abcdef' });
      expect(byToken.status).toBe(200);
      expect(byToken.text).toContain('support_agent_graph_runs_total');
      expect((await scrape(s.url, { authorization: 'Bearer manager-key-abcdef' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
