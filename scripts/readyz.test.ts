import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { startTcpProxy, type TcpProxy } from '../core/testing/tcp-proxy.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { say } from '../agent/testing/fixtures.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { eventually, soleChild } from '../agent/testing/tool-server-children.js';
import { startProduct, type Product } from './product.js';

// The product as `npm start` wires it: stdio tool-server child, the local Slack workspace, and
// Postgres behind a TCP proxy so the database can be made unreachable for this product alone.
let db: TestDatabase;
let proxy: TcpProxy;
let product: Product;
let dataDir: string;

const get = async (route: string) => {
  const t0 = Date.now();
  const res = await fetch(`${product.url}${route}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - t0 };
};

beforeAll(async () => {
  db = await createSeededDatabase();
  const u = new URL(db.url);
  proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
  dataDir = mkdtempSync(path.join(tmpdir(), 'readyz-test-'));
  product = await startProduct({
    config: testConfig({
      DATABASE_URL: proxy.proxiedUrl(db.url),
      SEED_DEMO: 'false',
      FIXED_NOW: TEST_NOW,
      BUSINESS_TIMEZONE: TEST_TZ,
      LOCAL_SLACK_PORT: '0',
      DATA_DIR: dataDir,
    }),
    logger: silentLogger,
    clock: fixedClock(TEST_NOW),
    port: 0,
    model: new ScriptedModel(() => say('We are open weekdays 8 to 6.')),
  });
}, 60_000);
afterAll(async () => {
  proxy?.resume();
  await product?.close();
  await proxy?.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('/readyz', () => {
  it('is 200 naming each dependency while all answer', async () => {
    const r = await get('/readyz');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ status: 'ready', database: 'ok', tool_server: 'ok', slack: 'ok', failed: [] });
  });

  it('is 503 naming the database while it is unreachable, and ready again once it is back', async () => {
    await proxy.pause('refuse');
    const down = await get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'not_ready', database: 'unreachable', failed: ['database'] });
    proxy.resume();
    await eventually('ready again', async () => ((await get('/readyz')).status === 200 ? true : undefined));
  });

  it('answers within its bound while the database hangs (a partition, not a refusal)', async () => {
    await proxy.pause('stall');
    try {
      const r = await get('/readyz');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ database: 'timeout', failed: ['database'] });
      expect(r.ms).toBeLessThan(5000);
    } finally {
      proxy.resume();
    }
    await eventually('ready again', async () => ((await get('/readyz')).status === 200 ? true : undefined));
  });

  it('is 503 naming the tool server while its child is dead; /healthz is unchanged', async () => {
    const pid = await soleChild();
    process.kill(pid, 'SIGKILL');
    const down = await eventually('/readyz to answer 503', async () => {
      const r = await get('/readyz');
      return r.status === 503 ? r : undefined;
    });
    expect(down.body.failed).toEqual(['tool_server']);
    expect(down.body.tool_server).not.toBe('ok');
    await eventually('the restarted tool server', async () =>
      (await get('/readyz')).status === 200 ? true : undefined,
    );
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', database: 'ok', tool_server: 'ok', tool_server_restarts: 1 });
  }, 90_000);

  it('is 503 naming Slack once the local workspace is gone', async () => {
    await product.slack!.local!.close();
    const r = await get('/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ slack: 'unreachable', failed: ['slack'], database: 'ok', tool_server: 'ok' });
  });
});
