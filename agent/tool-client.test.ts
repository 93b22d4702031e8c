import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixedClock } from '../core/clock.js';
import { childEnv, testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { startHttpToolServer } from '../mcp-server/http.js';
import { createAgentRuntime, type AgentRuntime } from './runtime.js';
import { call, isCustomer, lastEvent, lastOf, propose, say } from './testing/fixtures.js';
import { ScriptedModel } from './testing/scripted-model.js';
import { eventually, isAlive, soleChild, toolServerChildren } from './testing/tool-server-children.js';
import { httpTransport, stdioTransport, ToolClient } from './tool-client.js';
import { textOf } from './window.js';

// Real stdio children of mcp-server/stdio.ts on a real database, wired the way a worker wires them.
let db: TestDatabase;
let rt: AgentRuntime;
const search = (query = 'opening hours') =>
  rt.tools.call('search_knowledge_base', { query, limit: 3 }, { anonymous: true });
const childEnvFor = (url: string) =>
  childEnv({
    DATABASE_URL: url,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    FIXED_NOW: TEST_NOW,
    BUSINESS_TIMEZONE: TEST_TZ,
  });

beforeAll(async () => {
  db = await createSeededDatabase();
  rt = await createAgentRuntime({
    config: testConfig({ FIXED_NOW: TEST_NOW, BUSINESS_TIMEZONE: TEST_TZ }),
    pool: db.pool,
    databaseUrl: db.url,
    clock: fixedClock(TEST_NOW),
    logger: silentLogger,
    model: new ScriptedModel((messages) => {
      const event = lastEvent(messages);
      if (event) return say(`EVENT ${event.status}`);
      const last = lastOf(messages);
      if (isCustomer(last, /ticket/)) {
        return propose(
          call('create_ticket', {
            customer_id: 'cus_001',
            subject: 'Broken gate',
            description: textOf(last),
            category: 'general',
          }),
        );
      }
      return say('hello');
    }),
  });
});
afterAll(async () => {
  await rt?.close();
  await db?.drop();
});

/** Hold `table` locked until the returned release(), once the tool-server child is waiting on it. */
async function stallChildOn(table: string, mode: string, start: () => void): Promise<() => Promise<void>> {
  const locker = await db.pool.connect();
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${table} IN ${mode} MODE`);
  const release = async () => {
    await locker.query('ROLLBACK').catch(() => undefined);
    locker.release();
  };
  try {
    start();
    await eventually('the child waiting on the lock', async () => {
      const r = await db.pool.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'mcp-stdio' AND wait_event_type = 'Lock'`,
      );
      return r.rowCount ? true : undefined;
    });
  } catch (err) {
    await release();
    throw err;
  }
  return release;
}

describe('supervised tool client (stdio child)', () => {
  it('fails a call in flight at once with tool_server_unavailable when the child is killed, ' +
    'then serves the next call from a new child', async () => {
    expect(await search()).toMatchObject({ ok: true });
    const first = await soleChild();
    // Hold the child's query on a table lock, so the call is provably in flight when it dies.
    let settled: unknown;
    let inflight!: Promise<unknown>;
    const release = await stallChildOn('kb_articles', 'ACCESS EXCLUSIVE', () => {
      inflight = search().then(
        (v) => (settled = { resolved: v }),
        (e) => (settled = { rejected: e }),
      );
    });
    try {
      process.kill(first, 'SIGKILL');
      await inflight;
    } finally {
      await release();
    }
    const err = (settled as { rejected?: { name?: string; code?: string; message?: string } }).rejected;
    expect(err, `expected a rejection, got ${JSON.stringify(settled)}`).toBeDefined();
    expect(err).toMatchObject({ name: 'ToolServerUnavailableError', code: 'tool_server_unavailable' });
    expect(err!.message).toMatch(/tool server/i);

    // Same worker, same ToolClient: a new child answers.
    await eventually('the restarted session', () => (rt.tools.health().status === 'ok' ? true : undefined));
    expect(await soleChild([first])).not.toBe(first);
    expect(await search()).toMatchObject({ ok: true });
    expect(rt.tools.health()).toMatchObject({ status: 'ok', restarts: 1 });
    expect(isAlive(first)).toBe(false);
  }, 90_000);

  it('an approved write whose child dies mid-call stays executing with nothing written; ' +
    'the sweeper runs it once on the new child', async () => {
    await eventually('a settled session', () => (rt.tools.health().status === 'ok' ? true : undefined));
    const turn = await rt.service.handleMessage({
      threadId: 'tool-client:execute',
      customerId: 'cus_001',
      text: 'please open a ticket, the gate is broken',
      source: 'api',
    });
    expect(turn.status).toBe('pending_approval');
    const approvalId = turn.pending[0]!.id;
    const tickets = async () =>
      (await db.pool.query(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [approvalId])).rows[0]
        .n as number;
    const restartsBefore = rt.tools.health().restarts;

    let deciding!: ReturnType<AgentRuntime['service']['decide']>;
    const release = await stallChildOn('tickets', 'SHARE ROW EXCLUSIVE', () => {
      deciding = rt.service.decide({ approvalId, approver: 'slack:U01MGR0001', decision: 'approve' });
    });
    try {
      process.kill(await soleChild(), 'SIGKILL');
      // The decision stands; the run failed on tool_server_unavailable and was left to the sweeper.
      expect((await deciding).approval.status).toBe('executing');
    } finally {
      await release();
    }
    expect(await tickets()).toBe(0);

    await eventually('the restarted session', () =>
      rt.tools.health().restarts > restartsBefore && rt.tools.health().status === 'ok' ? true : undefined,
    );
    await rt.service.sweep({ graceMs: 0 });
    expect((await rt.ledger.get(approvalId))!.status).toBe('executed');
    expect(await tickets()).toBe(1);
    const executed = await db.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
      [approvalId],
    );
    expect(executed.rows[0].n).toBe(1);
  }, 90_000);

  it(
    'refuses a message over the stdio read buffer as invalid_arguments instead of sending it ' +
      '(the child would stop listening)',
    async () => {
      const pid = await soleChild();
      const out = await search('x'.repeat(11 * 1024 * 1024));
      expect(out).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
      expect(toolServerChildren()).toEqual([pid]);
      expect(await search()).toMatchObject({ ok: true });
    },
  );
});

describe('supervised tool client (own factory)', () => {
  const meta = { anonymous: true };
  const hours = { query: 'hours', limit: 1 };
  /** The tool-server children started since `before` (the runtime above has its own). */
  const newChild = (before: number[]) =>
    eventually('a new tool-server child', () => {
      const fresh = toolServerChildren().filter((p) => !before.includes(p));
      return fresh.length === 1 ? fresh[0] : undefined;
    });

  it('reports restarting while the child is gone; a call made meanwhile waits for the new child; ' +
    'then ok with the restart counted', async () => {
    const others = toolServerChildren();
    // A long wait bound: this is about waiting instead of failing, on however loaded a machine.
    const tools = await ToolClient.connect(() => stdioTransport(childEnvFor(db.url)), { reconnectWaitMs: 60_000 });
    try {
      expect(tools.health()).toEqual({ status: 'ok', restarts: 0 });
      process.kill(await newChild(others), 'SIGKILL');
      await eventually('health to leave ok', () => (tools.health().status !== 'ok' ? true : undefined));
      expect(tools.health()).toMatchObject({ status: 'restarting', restarts: 0, last_error: expect.any(String) });
      expect(await tools.call('search_knowledge_base', hours, meta)).toMatchObject({ ok: true });
      expect(tools.health()).toMatchObject({ status: 'ok', restarts: 1 });
    } finally {
      await tools.close();
    }
  }, 90_000);

  it('with the size guard off, an oversized message is refused by the child, ' +
    'which stays up and serves the next call', async () => {
    const others = toolServerChildren();
    const tools = await ToolClient.connect(() => stdioTransport(childEnvFor(db.url)), {
      maxMessageBytes: Number.POSITIVE_INFINITY,
      reconnectWaitMs: 60_000,
    });
    try {
      expect(await tools.call('search_knowledge_base', hours, meta)).toMatchObject({ ok: true });
      const first = await newChild(others);
      // The SDK's own stdio transport stops reading for good after a line over 10 MB; ours drops
      // the line and answers that request with an error.
      const err = await tools
        .call('search_knowledge_base', { query: 'x'.repeat(11 * 1024 * 1024), limit: 1 }, meta)
        .catch((e) => e);
      expect(String(err?.message ?? err)).toMatch(/too large/i);
      expect(await tools.call('search_knowledge_base', hours, meta)).toMatchObject({ ok: true });
      expect(isAlive(first)).toBe(true);
      expect(tools.health()).toMatchObject({ status: 'ok', restarts: 0 });
    } finally {
      await tools.close();
    }
  }, 90_000);

  it('fails calls with tool_server_unavailable after a bounded wait when the child cannot be restarted, ' +
    'and close() stops trying', async () => {
    const others = toolServerChildren();
    let spawned = 0;
    // Every child after the first is a process that exits at once, as a tool server would on a
    // broken install or an unreachable database (only faster).
    const tools = await ToolClient.connect(
      () =>
        ++spawned === 1
          ? stdioTransport(childEnvFor(db.url))
          : new StdioClientTransport({ command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' }),
      { reconnectWaitMs: 300, backoff: { initialMs: 20, maxMs: 100 } },
    );
    process.kill(await newChild(others), 'SIGKILL');
    await eventually('health to leave ok', () => (tools.health().status !== 'ok' ? true : undefined));
    const err = await tools.call('search_knowledge_base', hours, meta).catch((e) => e);
    expect(err).toMatchObject({ code: 'tool_server_unavailable', details: { sent: false } });
    expect(err.message).toMatch(/nothing was written/i);
    await eventually('health to report down', () => (tools.health().status === 'down' ? true : undefined));
    await tools.close();
    const attempts = spawned;
    expect(tools.health().status).toBe('down');
    await expect(tools.call('search_knowledge_base', hours, meta)).rejects.toMatchObject({
      code: 'tool_server_unavailable',
    });
    await eventually('no child of ours left', () =>
      toolServerChildren().every((p) => others.includes(p)) ? true : undefined,
    );
    // Three times the longest backoff: a loop still running would have spawned again by now.
    await new Promise((r) => setTimeout(r, 300));
    expect(spawned).toBe(attempts);
  }, 60_000);
});

describe('supervised tool client (Streamable HTTP service)', () => {
  it('fails a call with tool_server_unavailable while the service refuses connections, ' +
    'and reconnects by itself once it is back', async () => {
    const deps = { pool: db.pool, clock: fixedClock(TEST_NOW), timeZone: TEST_TZ, logger: silentLogger };
    let server = await startHttpToolServer({ deps, port: 0 });
    const url = server.url;
    const tools = await ToolClient.connect(() => httpTransport(url), {
      backoff: { initialMs: 20, maxMs: 200 },
      downAfterFailures: 1_000,
      reconnectWaitMs: 100,
    });
    const hours = () => tools.call('search_knowledge_base', { query: 'hours', limit: 1 }, { anonymous: true });
    try {
      expect(await hours()).toMatchObject({ ok: true });
      await server.close();
      // The first call may go out on a kept-alive socket the server has just closed: whether it
      // was received is unknown, and the error says so (sent: true).
      expect(await hours().catch((e) => e)).toMatchObject({
        name: 'ToolServerUnavailableError',
        code: 'tool_server_unavailable',
      });
      // While the service refuses connections: calls wait their bound, then fail as never sent.
      await eventually('a refused reconnect', () =>
        /ECONNREFUSED/.test(tools.health().last_error ?? '') ? true : undefined,
      );
      const err = await hours().catch((e) => e);
      expect(err).toMatchObject({ code: 'tool_server_unavailable', details: { sent: false } });
      expect(err.message).toMatch(/nothing was written/);
      expect(tools.health().status).toBe('restarting');
      server = await startHttpToolServer({ deps, port: Number(new URL(url).port) });
      await eventually('the session re-established', () => (tools.health().status === 'ok' ? true : undefined));
      expect(await hours()).toMatchObject({ ok: true });
      expect(tools.health().restarts).toBe(1);
    } finally {
      await tools.close();
      await server.close();
    }
  }, 60_000);
});
