import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixedClock } from '../core/clock.js';
import { ConfigError, testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { LOCAL_CALLER, scopeFor } from './caller.js';
import { startHttpToolServer } from './http.js';
import { approvalRow, insertApproval } from './testing/approvals.js';
import { call, connectHttp, ok, refused, TEST_STAFF_KEY, type Connected } from './testing/clients.js';
import { businessSnapshot } from './testing/tables.js';

/*
 * The attacks of the "open by default, trusts _meta" report, each through a real HTTP server and a
 * real MCP SDK client: who the caller is comes from the bearer credential, never from `_meta`.
 */

let db: TestDatabase;
let open: Connected & { url: string };

beforeAll(async () => {
  db = await createSeededDatabase();
  // No key configured at all: the default of `npm run mcp:http` on loopback.
  open = await connectHttp(db.pool);
});
afterAll(async () => {
  await open?.close();
  await db?.drop();
});

const AGENT_KEY = 'agent-key-0123456789abcdef';

const count = async (sql: string, params: unknown[] = []) =>
  (await db.pool.query<{ n: number }>(sql, params)).rows[0]!.n;

/** A raw request with headers a browser (or a rebinding page) would send; fetch can't forge Host. */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('no credential (no key configured)', () => {
  it('(a) cannot read a customer record: not without customer_id, not by claiming one', async () => {
    const lookup = await call(open.client, 'lookup_customer', { customer_id: 'cus_002' });
    expect(JSON.stringify(lookup)).not.toMatch(/@example|\(555\)/);
    expect(refused(lookup).code).toBe('out_of_scope');
    // Claiming to be that customer in _meta is not a credential either.
    const claimed = await call(open.client, 'lookup_customer', { customer_id: 'cus_002' }, { customer_id: 'cus_002' });
    expect(JSON.stringify(claimed)).not.toMatch(/@example|\(555\)/);
    expect(refused(claimed).code).toBe('unauthenticated');
    const byName = await call(open.client, 'lookup_customer', { name: 'Whitaker' });
    expect(refused(byName).code).toBe('out_of_scope');
  });

  it('still answers from the knowledge base', async () => {
    const kb = await call(open.client, 'search_knowledge_base', { query: 'cancellation policy' });
    expect(kb.ok).toBe(true);
  });

  it('(b) cannot run a write handler with dry_run', async () => {
    const before = await businessSnapshot(db.pool);
    const args = { customer_id: 'cus_015', changes: { notes: 'rehearsed by a stranger' } };
    const r = refused(await call(open.client, 'update_customer', args, { dry_run: true }));
    expect(r.code).toBe('unauthenticated');
    expect(
      refused(await call(open.client, 'update_customer', args, { dry_run: true, customer_id: 'cus_015' })).code,
    ).toBe('unauthenticated');
    expect(await businessSnapshot(db.pool)).toEqual(before);
  });

  it('(c) cannot execute an approved approval by naming a made-up member of staff', async () => {
    const args = { customer_id: 'cus_004', subject: 'Forged execution', description: 'x', category: 'general' };
    const id = await insertApproval(db.pool, { tool: 'create_ticket', args });
    const r = refused(await call(open.client, 'create_ticket', args, { staff_id: 'U0MADEUP', approval_id: id }));
    expect(r.code).toBe('unauthenticated');
    expect((await approvalRow(db.pool, id))!.status).toBe('approved');
    expect(await count(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [id])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE actor = 'staff:U0MADEUP'`)).toBe(0);
  });
});

describe('Host and Origin (DNS rebinding)', () => {
  it('(d) refuses a foreign Origin or Host with 403 before any tool runs; loopback is fine', async () => {
    const port = new URL(open.url).port;
    const foreignOrigin = await rawPost(open.url, { origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).not.toMatch(/lookup_customer/);
    const foreignHost = await rawPost(open.url, { host: `evil.example:${port}` });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).not.toMatch(/lookup_customer/);
    expect((await rawPost(open.url, { origin: 'null' })).status).toBe(403);
    // A non-browser client sends no Origin; a local page on another port is still loopback.
    expect((await rawPost(open.url, {})).status).toBe(200);
    expect((await rawPost(open.url, { host: `localhost:${port}`, origin: 'http://localhost:6274' })).status).toBe(200);
  });
});

describe('npm run mcp:http beyond loopback', () => {
  it('(e) refuses to start without a key, with one clear line and exit code 2', async () => {
    const { spawn } = await import('node:child_process');
    const { childEnv } = await import('../core/config.js');
    const child = spawn(process.execPath, ['--import', 'tsx', 'mcp-server/http.ts', '--no-email-dispatcher'], {
      env: childEnv({
        DATABASE_URL: db.url,
        MCP_HTTP_PORT: '0',
        MCP_API_KEY: '',
        MCP_STAFF_KEYS: '',
        FIXED_NOW: TEST_NOW,
        LOG_LEVEL: 'info',
        HOST: '0.0.0.0',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      // Today it starts: stop it, the assertions below report it.
      if (/MCP tool server ready/.test(out)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(out).not.toMatch(/MCP tool server ready/);
    expect(code).toBe(2);
    expect(err).toMatch(/MCP_API_KEY/);
    expect(err).toMatch(/0\.0\.0\.0/);
  });
});

describe('with keys configured', () => {
  let keyed: Connected & { url: string };
  let staff: Client;
  const auditOf = async (id: string) =>
    (
      await db.pool.query<{ actor: string; via: string }>(
        `SELECT actor, details->>'via' AS via FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
        [id],
      )
    ).rows;

  beforeAll(async () => {
    // The agent's session (connectHttp presents apiKey), and a staff session on the same server.
    keyed = await connectHttp(db.pool, {
      apiKey: AGENT_KEY,
      staffKeys: [TEST_STAFF_KEY],
      allowedHosts: ['tools.internal'],
      allowedOrigins: ['https://console.example.com'],
    });
    staff = new Client({ name: 'staff', version: '0' });
    await staff.connect(
      new StreamableHTTPClientTransport(new URL(keyed.url), {
        requestInit: { headers: { Authorization: `Bearer ${TEST_STAFF_KEY.key}` } },
      }),
    );
  });
  afterAll(async () => {
    await staff?.close();
    await keyed?.close();
  });

  it('refuses a missing or wrong credential with 401, whatever _meta says', async () => {
    expect((await rawPost(keyed.url, {})).status).toBe(401);
    expect((await rawPost(keyed.url, { authorization: 'Bearer not-a-key' })).status).toBe(401);
    expect((await rawPost(keyed.url, { authorization: `Bearer ${AGENT_KEY}x` })).status).toBe(401);
    expect((await rawPost(keyed.url, { authorization: AGENT_KEY })).status).toBe(401);
    expect((await rawPost(keyed.url, { authorization: `Bearer ${AGENT_KEY}` })).status).toBe(200);
  });

  it('the agent key acts for the customer it names, and never gets staff scope', async () => {
    const own = ok(await call(keyed.client, 'lookup_customer', { customer_id: 'cus_002' }, { customer_id: 'cus_002' }));
    expect(own).toMatchObject({ status: 'found', customer: { id: 'cus_002' } });
    expect(
      refused(await call(keyed.client, 'lookup_customer', { customer_id: 'cus_003' }, { customer_id: 'cus_002' })).code,
    ).toBe('out_of_scope');
    // No identity named: the narrowest scope, not staff.
    expect(refused(await call(keyed.client, 'lookup_customer', { customer_id: 'cus_003' })).code).toBe('out_of_scope');
    expect(
      refused(await call(keyed.client, 'lookup_customer', { customer_id: 'cus_003' }, { anonymous: true })).code,
    ).toBe('out_of_scope');
    const asStaff = refused(
      await call(keyed.client, 'lookup_customer', { customer_id: 'cus_003' }, { staff_id: 'U01MGR0001' }),
    );
    expect(asStaff.code).toBe('out_of_scope');
    expect(asStaff.message).toMatch(/MCP_STAFF_KEYS/);
  });

  it('the agent key rehearses and executes writes for its customer', async () => {
    const before = await businessSnapshot(db.pool);
    const change = { customer_id: 'cus_007', changes: { notes: 'Prefers afternoon visits.' } };
    const rehearsal = await call(keyed.client, 'update_customer', change, { customer_id: 'cus_007', dry_run: true });
    expect(rehearsal.ok && rehearsal.meta).toMatchObject({ dry_run: true });
    expect(await businessSnapshot(db.pool)).toEqual(before);
    const id = await insertApproval(db.pool, { tool: 'update_customer', args: change });
    ok(await call(keyed.client, 'update_customer', change, { customer_id: 'cus_007', approval_id: id }));
    expect(await auditOf(id)).toEqual([{ actor: 'customer:cus_007', via: 'agent' }]);
  });

  it(
    '(c) an approval executed with a made-up staff_id: ' + 'refused for the agent, audited as the key for staff',
    async () => {
      const args = { customer_id: 'cus_008', subject: 'Made-up actor', description: 'x', category: 'general' };
      const id = await insertApproval(db.pool, { tool: 'create_ticket', args });
      expect(
        refused(await call(keyed.client, 'create_ticket', args, { staff_id: 'U0MADEUP', approval_id: id })).code,
      ).toBe('out_of_scope');
      expect((await approvalRow(db.pool, id))!.status).toBe('approved');
      ok(await call(staff, 'create_ticket', args, { staff_id: 'U0MADEUP', approval_id: id }));
      expect(await auditOf(id)).toEqual([{ actor: 'staff:test-staff', via: 'staff:test-staff' }]);
      expect(await count(`SELECT count(*)::int AS n FROM audit_log WHERE actor LIKE '%U0MADEUP%'`)).toBe(0);
    },
  );

  it('a staff key reads any customer and may narrow itself to one', async () => {
    expect(ok(await call(staff, 'lookup_customer', { customer_id: 'cus_003' }))).toMatchObject({ status: 'found' });
    expect(
      refused(await call(staff, 'lookup_customer', { customer_id: 'cus_003' }, { customer_id: 'cus_002' })).code,
    ).toBe('out_of_scope');
  });

  it('accepts the configured Host and Origin, and still refuses others', async () => {
    const auth = { authorization: `Bearer ${AGENT_KEY}` };
    expect((await rawPost(keyed.url, { ...auth, host: 'tools.internal:443' })).status).toBe(200);
    expect((await rawPost(keyed.url, { ...auth, origin: 'https://console.example.com' })).status).toBe(200);
    expect((await rawPost(keyed.url, { ...auth, origin: 'http://console.example.com' })).status).toBe(403);
    expect((await rawPost(keyed.url, { ...auth, host: 'tools.internal.evil.example' })).status).toBe(403);
    // Checked before the credential: a foreign page learns nothing, not even that a key is needed.
    expect((await rawPost(keyed.url, { origin: 'https://evil.example' })).status).toBe(403);
  });
});

describe('configuration', () => {
  const deps = () => ({ pool: db.pool, clock: fixedClock(TEST_NOW), timeZone: TEST_TZ, logger: silentLogger });

  it('refuses a non-loopback bind without a key in-process too, and bad staff keys', async () => {
    await expect(startHttpToolServer({ deps: deps(), port: 0, host: '0.0.0.0' })).rejects.toThrow(ConfigError);
    await expect(startHttpToolServer({ deps: deps(), port: 0, host: '10.1.2.3' })).rejects.toThrow(/MCP_API_KEY/);
    await expect(
      startHttpToolServer({ deps: deps(), port: 0, apiKey: AGENT_KEY, staffKeys: [{ name: 'dana', key: AGENT_KEY }] }),
    ).rejects.toThrow(/MCP_STAFF_KEYS/);
    const parsed = testConfig({
      MCP_STAFF_KEYS: 'dana:dana-key-0123456789ab, owen:owen-key-0123456789ab',
    }).MCP_STAFF_KEYS;
    expect(parsed).toEqual([
      { name: 'dana', key: 'dana-key-0123456789ab' },
      { name: 'owen', key: 'owen-key-0123456789ab' },
    ]);
    for (const bad of [
      'dana-key-0123456789ab',
      'dana:short',
      'da na:dana-key-0123456789ab',
      'dana:dana-key-0123456789ab,dana:other-key-0123456789ab',
    ]) {
      let err: unknown;
      try {
        testConfig({ MCP_STAFF_KEYS: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/MCP_STAFF_KEYS/);
      expect((err as Error).message).not.toMatch(/key-0123456789ab/); // never echo a secret
    }
  });

  it('keeps the local (stdio, in-process) caller as it was: the process boundary is the credential', () => {
    expect(scopeFor(LOCAL_CALLER, {})).toEqual({ kind: 'staff', staffId: 'unidentified' });
    expect(scopeFor(LOCAL_CALLER, { staff_id: 'U01MGR0001' })).toEqual({ kind: 'staff', staffId: 'U01MGR0001' });
    expect(scopeFor(LOCAL_CALLER, { customer_id: 'cus_001', staff_id: 'x' })).toEqual({
      kind: 'customer',
      customerId: 'cus_001',
    });
    expect(scopeFor(LOCAL_CALLER, { anonymous: true })).toEqual({ kind: 'anonymous' });
  });
});
