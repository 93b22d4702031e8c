import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../core/testing/test-database.js';
import { canonicalJson } from '../schema/tools/canonical.js';
import { approvalRow, insertApproval } from './testing/approvals.js';
import { call, connectHttp, ok, TEST_STAFF_KEY, type Connected } from './testing/clients.js';
import { freeStarts } from './testing/slots.js';

const KEY = 'test-mcp-key-0123456789';
let db: TestDatabase;
let conn: Connected & { url: string };

beforeAll(async () => {
  db = await createSeededDatabase();
  conn = await connectHttp(db.pool, { apiKey: KEY, staffKeys: [TEST_STAFF_KEY] });
});
afterAll(async () => {
  await conn?.close();
  await db?.drop();
});

const initialize = (auth?: string) =>
  fetch(conn.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(auth ? { authorization: auth } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });

describe('the Streamable HTTP service', () => {
  it('requires the bearer key when one is configured', async () => {
    expect((await initialize()).status).toBe(401);
    expect((await initialize('Bearer wrong-key')).status).toBe(401);
    const res = await initialize(`Bearer ${KEY}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { serverInfo: { name: string } } };
    expect(body.result.serverInfo.name).toBe('brightwell-support-tools');
    // A client without the key can't even list the tools.
    const anonymous = new Client({ name: 'anon', version: '0' });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(conn.url)))).rejects.toThrow();
  });

  it('is stateless: no session id, GET and DELETE are refused, junk bodies get a JSON-RPC error', async () => {
    const res = await initialize(`Bearer ${KEY}`);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const get = await fetch(conn.url, { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    const del = await fetch(conn.url, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}` } });
    expect(del.status).toBe(405);
    const junk = await fetch(conn.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('answers health checks without the key', async () => {
    const res = await fetch(conn.url.replace('/mcp', '/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect((await fetch(conn.url.replace('/mcp', '/nope'))).status).toBe(404);
  });
});

describe('concurrency through the tool server', () => {
  const clients: Client[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 10; i++) {
      const c = new Client({ name: `worker-${i}`, version: '0' });
      // Staff-scope writes (no customer_id): only a staff key gets that scope over HTTP.
      await c.connect(
        new StreamableHTTPClientTransport(new URL(conn.url), {
          requestInit: { headers: { Authorization: `Bearer ${TEST_STAFF_KEY.key}` } },
        }),
      );
      clients.push(c);
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it('50 concurrent calls with one approval id: exactly one write, all 50 get the same result', async () => {
    const args = {
      customer_id: 'cus_021',
      subject: 'Dogs got out of the yard',
      description: 'The gate was left open after the visit.',
      priority: 'urgent',
      category: 'complaint',
    };
    const id = await insertApproval(db.pool, { tool: 'create_ticket', args });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(clients[i % clients.length]!, 'create_ticket', args, { staff_id: 'U01MGR0002', approval_id: id }),
      ),
    );
    const results = outcomes.map(ok);
    // (The stored result comes back from jsonb, whose key order differs: compare canonically.)
    expect(new Set(results.map((r) => canonicalJson(r))).size).toBe(1);
    expect(outcomes.filter((o) => o.ok && o.meta?.replay === false)).toHaveLength(1);
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [id])).rows[0].n).toBe(
      1,
    );
    expect(
      (await db.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1`, [id])).rows[0].n,
    ).toBe(1);
    expect((await approvalRow(db.pool, id))!.status).toBe('executed');
  });

  it(
    '8 different approvals racing for one start time: ' + 'two crews, two bookings, six refusals with alternatives',
    async () => {
      const [start] = await freeStarts(db.pool, { hours: 1, crews: 2 });
      const customers = ['cus_001', 'cus_002', 'cus_003', 'cus_005', 'cus_006', 'cus_008', 'cus_009', 'cus_010'];
      const calls = await Promise.all(
        customers.map(async (customer_id, i) => {
          const args = { customer_id, service_id: 'svc_handyman_hour', start_time: start! };
          const id = await insertApproval(db.pool, { tool: 'book_slot', args });
          return call(clients[i]!, 'book_slot', args, { staff_id: 'U01MGR0003', approval_id: id });
        }),
      );
      const booked = calls.filter((c) => c.ok);
      const refusedCalls = calls.filter((c) => !c.ok);
      expect(booked).toHaveLength(2);
      expect(new Set(booked.map((b) => (b.ok ? (b.result.booking as { crew: string }).crew : '')))).toEqual(
        new Set(['crew-a', 'crew-b']),
      );
      for (const r of refusedCalls)
        expect(r).toMatchObject({ code: 'slot_unavailable', details: { alternatives: expect.any(Array) } });
      const rows = await db.pool.query(`SELECT count(*)::int AS n FROM bookings WHERE starts_at = $1`, [start]);
      expect(rows.rows[0].n).toBe(2);
      expect(new Date(start!).getTime()).toBeGreaterThan(new Date(TEST_NOW).getTime());
    },
  );
});

describe('npm run mcp:http', () => {
  it('starts from the environment, serves, and shuts down cleanly on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const { childEnv } = await import('../core/config.js');
    const child = spawn(process.execPath, ['--import', 'tsx', 'mcp-server/http.ts', '--no-email-dispatcher'], {
      env: childEnv({
        DATABASE_URL: db.url,
        MCP_HTTP_PORT: '0',
        MCP_API_KEY: KEY,
        FIXED_NOW: TEST_NOW,
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
      }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /"url":"([^"]+)".*MCP tool server ready/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then(() => reject(new Error(`exited early: ${out}`)));
      });
      const health = await fetch(url.replace('/mcp', '/healthz'));
      expect(health.status).toBe(200);
      const client = new Client({ name: 'child-check', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
        }),
      );
      expect((await client.listTools()).tools).toHaveLength(8);
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
