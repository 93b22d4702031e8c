import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../core/embedded-postgres.js';
import { createEmptyDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { childEnv } from '../core/config.js';

/** `npm start` as a user runs it: a separate process, configured only through its environment. */
function start(env: Record<string, string>): {
  child: ChildProcess;
  ready: Promise<Record<string, any>>;
  stderr: () => string;
  stdout: () => string;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: childEnv({ DATABASE_URL: '', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d) => (err += d));
  child.stdout!.on('data', (d) => (out += d));
  const ready = new Promise<Record<string, any>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'support agent ready') resolve(entry);
      } catch {
        /* not a log line */
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
  return { child, ready, stderr: () => err, stdout: () => out };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code)),
  );

const dirs: string[] = [];
const dbs: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('npm start', () => {
  it('on embedded defaults: starts Postgres itself, seeds, ' +
    'answers /healthz, and stops everything on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const p = start({ DATA_DIR: dataDir, PORT: String(port), LOCAL_SLACK_PORT: '0' });
    const ready = await p.ready;
    expect(ready.database).toMatch(/embedded/);
    expect(ready.planner).toBe('offline fallback');
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', embedded_database: true });
    const chat = await fetch(`http://127.0.0.1:${port}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'cus_001', message: 'What are your opening hours?' }),
    });
    expect(chat.status).toBe(200);
    expect(await chat.json()).toMatchObject({ status: 'answered', fallback: true });
    const write = await fetch(`http://127.0.0.1:${port}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'cus_001', message: 'Please change my phone number to 555-201-4040' }),
    });
    expect(await write.json()).toMatchObject({
      status: 'pending_approval',
      fallback: true,
      approvals: [{ tool: 'update_customer' }],
    });
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);
    p.child.kill('SIGTERM');
    expect(await exited(p.child)).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('the first minute: / says what runs and links the console; the README approve command works', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const p = start({ DATA_DIR: dataDir, PORT: String(port), LOCAL_SLACK_PORT: '0' });
    const ready = await p.ready;
    const base = `http://127.0.0.1:${port}`;
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.json()).toMatchObject({ status: 'running', slack_console: ready.slack_console });
    const page = await (await fetch(`${base}/`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(`href="${ready.slack_console}"`);
    // Local mode made a manager key, readable by its owner only, and said where it is.
    const keyFile = path.join(dataDir, 'manager-api-key');
    expect(ready.manager_api_key_file).toBe(keyFile);
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(p.stdout()).not.toContain(key);
    const chat = await fetch(`${base}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'cus_001', message: 'Please change my phone number to 555-201-4041' }),
    });
    const proposed = (await chat.json()) as { approvals: { id: string }[] };
    // The README's command, as written, with MANAGER_API_KEY=$(cat .data/manager-api-key).
    const approve = await fetch(`${base}/approvals/${proposed.approvals[0]!.id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(approve.status).toBe(200);
    expect(await approve.json()).toMatchObject({ approval: { status: 'executed' } });
    p.child.kill('SIGTERM');
    expect(await exited(p.child)).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('with DATABASE_URL: uses that server and starts no embedded one', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const p = start({ DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: String(port), LOCAL_SLACK_PORT: '0' });
    const ready = await p.ready;
    expect(ready.database).toBe('DATABASE_URL');
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    const customers = await db.pool.query(`SELECT count(*)::int AS n FROM customers`);
    expect(customers.rows[0].n).toBeGreaterThanOrEqual(25);
    p.child.kill('SIGINT');
    expect(await exited(p.child)).toBe(0);
  }, 120_000);

  it('a malformed setting is one clear message naming the variable, not a stack trace', async () => {
    const p = start({ PORT: 'eighty', APPROVAL_TTL_MINUTES: '-5' });
    await expect(p.ready).rejects.toThrow();
    expect(await exited(p.child)).toBe(2);
    expect(p.stderr()).toMatch(/PORT: /);
    expect(p.stderr()).toMatch(/APPROVAL_TTL_MINUTES: /);
    expect(p.stderr()).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('database URLs', () => {
  it('honour SSL parameters in the URL (as Supabase gives them)', async () => {
    const { createPool } = await import('../core/pg-pool.js');
    const db = await createEmptyDatabase();
    dbs.push(db);
    const url = new URL(db.url);
    url.searchParams.set('sslmode', 'require');
    const pool = createPool(url.toString());
    // The test server has no TLS: a URL that demands it must fail rather than silently connect in clear.
    await expect(pool.query('SELECT 1')).rejects.toThrow(/SSL|ssl/);
    await pool.end();
  });
});
