import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { childEnv } from './config.js';
import { connectClient, createPool, isConnectionError, withTransaction, type PoolClient } from './pg-pool.js';
import { startTcpProxy } from './testing/tcp-proxy.js';
import { createEmptyDatabase, type TestDatabase } from './testing/test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createEmptyDatabase('db');
  await new PostgresSaver(db.pool).setup();
});
afterAll(async () => {
  await db?.drop();
});

interface Child {
  events: { step: string; [k: string]: unknown }[];
  stderr: () => string;
  waitForLog(msg: string): Promise<void>;
  waitFor(step: string): Promise<Record<string, unknown>>;
  send(): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startChild(mode: string, applicationName: string, url = db.url): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'core/testing/dropped-connection-child.ts', mode, applicationName],
    {
      env: childEnv({ DATABASE_URL: url }),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let err = '';
  const logWaiters: { msg: string; resolve: () => void }[] = [];
  child.stderr.on('data', (d) => {
    err += d;
    for (const w of logWaiters) if (err.includes(`"msg":"${w.msg}"`)) w.resolve();
  });
  const events: Child['events'] = [];
  const waiters: { step: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as Child['events'][number];
    events.push(event);
    for (const w of waiters.filter((x) => x.step === event.step)) w.resolve(event);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    events,
    stderr: () => err,
    exited,
    send: () => child.stdin.write('go\n'),
    waitForLog: (msg) =>
      new Promise((resolve, reject) => {
        if (err.includes(`"msg":"${msg}"`)) return resolve();
        logWaiters.push({ msg, resolve });
        void exited.then(({ code }) => reject(new Error(`child exited (${code}) before logging "${msg}":\n${err}`)));
      }),
    waitFor: (step) =>
      new Promise((resolve, reject) => {
        const seen = events.find((e) => e.step === step);
        if (seen) return resolve(seen);
        waiters.push({ step, resolve });
        void exited.then(({ code }) => reject(new Error(`child exited (${code}) before "${step}":\n${err}`)));
      }),
  };
}

/** Terminate the child's backends matching `where`, once they show up (they are about to). */
async function terminate(applicationName: string, where: string): Promise<number> {
  for (let i = 0; i < 1000; i++) {
    const r = await db.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND ${where}`,
      [applicationName],
    );
    if (r.rows.length) {
      await db.pool.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [r.rows.map((x) => x.pid)]);
      return r.rows.length;
    }
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`no backend of ${applicationName} matched ${where}`);
}

async function backendsOf(applicationName: string): Promise<number> {
  const r = await db.pool.query<{ n: number }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [applicationName],
  );
  return r.rows[0]!.n;
}

const appName = () => `drop-${randomBytes(4).toString('hex')}`;

/**
 * The child logged the loss as a safe line: no pg client, no connection parameters. (A plain
 * `pool.query` releases its client with the error before the socket closes: the client never
 * emits 'error', so there is nothing to log.)
 */
function expectSafeLossLog(stderr: string, logged = true) {
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  const loss = lines.find((l) => l.msg === 'database connection lost');
  if (logged) {
    expect(loss, stderr).toBeDefined();
    expect(typeof loss!.err.message).toBe('string');
  }
  expect(stderr).not.toMatch(/secretKey|connectionParameters|"client"|"password"/);
}

describe('a terminated backend never takes the process down', () => {
  it('inside withTransaction: the transaction rejects, the process logs, recovers and exits 0', async () => {
    const name = appName();
    const child = startChild('transaction', name);
    await child.waitFor('holding');
    expect(await terminate(name, `state = 'active' AND query = 'SELECT pg_sleep(10)'`)).toBe(1);
    const rejected = await child.waitFor('rejected');
    expect(isConnectionError(rejected)).toBe(true);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.events.map((e) => e.step)).toEqual(['holding', 'rejected', 'recovered']);
    expectSafeLossLog(child.stderr());
  });

  it('between two statements of a transaction, the TCP connection cut (a pooler going away): it survives', async () => {
    const target = new URL(db.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const child = startChild('between', appName(), proxy.proxiedUrl(db.url));
      await child.waitFor('holding');
      await proxy.pause('refuse');
      await child.waitForLog('database connection lost');
      proxy.resume();
      child.send();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.events.map((e) => e.step)).toEqual(['holding', 'rejected', 'recovered']);
      expect(isConnectionError(child.events[1])).toBe(true);
      expectSafeLossLog(child.stderr());
    } finally {
      await proxy.close();
    }
  });

  it('idle pooled connections: all terminated, the process survives and reconnects', async () => {
    const name = appName();
    const child = startChild('idle', name);
    expect((await child.waitFor('holding')).idle).toBe(3);
    expect(await terminate(name, `state = 'idle'`)).toBe(3);
    for (let i = 0; i < 1000 && (await backendsOf(name)) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    child.send();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.events.at(-1)).toEqual({ step: 'recovered', ok: 1 });
    expectSafeLossLog(child.stderr());
  });

  for (const mode of ['saver-put', 'saver-get'] as const) {
    it(`PostgresSaver ${mode.slice(6)} in flight: it rejects, the next one succeeds`, async () => {
      const name = appName();
      const child = startChild(mode, name);
      await child.waitFor('ready');
      const locker = await db.pool.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE checkpoints IN ACCESS EXCLUSIVE MODE');
        child.send();
        await child.waitFor('holding');
        expect(await terminate(name, `wait_event_type = 'Lock'`)).toBe(1);
        await child.waitFor('rejected');
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
      child.send();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.events.map((e) => e.step)).toEqual(['ready', 'holding', 'rejected', 'recovered']);
      expectSafeLossLog(child.stderr(), mode === 'saver-put');
    });
  }
});

describe('withTransaction after a lost connection', () => {
  it('rejects with the original error and does not hand the dead client out again', async () => {
    const name = appName();
    const pool = createPool(db.url, { max: 1, applicationName: name });
    try {
      let held: PoolClient | undefined;
      const tx = withTransaction(pool, async (c) => {
        held = c;
        // Without a listener of its own, the 'error' below is an unhandled event: the process ends.
        expect(c.listenerCount('error')).toBeGreaterThan(0);
        const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
        await c.query('SELECT 1');
      });
      const err = await tx.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isConnectionError(err)).toBe(true);
      const next = await pool.connect();
      expect(next).not.toBe(held);
      expect((await next.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]!.ok).toBe(1);
      next.release();
    } finally {
      await pool.end();
    }
  });
});

describe('connectClient', () => {
  it('a standalone client outlives its terminated backend: it ends, nothing is thrown', async () => {
    const name = appName();
    const client = await connectClient(db.url, { applicationName: name });
    expect(client.listenerCount('error')).toBe(1);
    const ended = new Promise((r) => client.once('end', r));
    await db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [name]);
    await ended;
    await expect(client.query('SELECT 1')).rejects.toSatisfy(isConnectionError);
  });
});

describe('isConnectionError', () => {
  it('tells a lost connection from an ordinary query error', () => {
    expect(isConnectionError({ code: '57P01', message: 'terminating connection due to administrator command' })).toBe(
      true,
    );
    expect(isConnectionError({ code: '08006' })).toBe(true);
    expect(isConnectionError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new Error('x', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isConnectionError({ code: '23505', message: 'duplicate key' })).toBe(false);
    expect(isConnectionError(new Error('boom'))).toBe(false);
    expect(isConnectionError(undefined)).toBe(false);
  });
});
