import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigProblems, childEnv, testConfig } from '../../core/config.js';
import { freePort } from '../../core/embedded-postgres.js';
import { createEmptyDatabase, type TestDatabase } from '../../core/testing/test-database.js';

const dbs: TestDatabase[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a bind beyond this machine needs API_KEY', () => {
  it('loopback addresses are local development; anything else without API_KEY is a config problem', () => {
    for (const HOST of ['127.0.0.1', '127.0.0.53', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(apiConfigProblems(testConfig({ HOST })), HOST).toEqual([]);
    }
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'example.com', '']) {
      expect(apiConfigProblems(testConfig({ HOST })), HOST).toMatchObject([{ variable: 'API_KEY' }]);
      expect(apiConfigProblems(testConfig({ HOST, API_KEY: 'k'.repeat(24) })), HOST).toEqual([]);
    }
  });

  it('one key may not stand for two identities, and key names are unique', () => {
    const dup = apiConfigProblems(testConfig({ MANAGER_API_KEY: 'same-key-123', API_KEY: 'same-key-123' }));
    expect(dup).toMatchObject([{ variable: 'MANAGER_API_KEYS' }]);
    expect(JSON.stringify(dup)).not.toContain('same-key-123');
    expect(apiConfigProblems(testConfig({ MANAGER_API_KEYS: 'dana:k1,dana:k2' }))).toMatchObject([
      { variable: 'MANAGER_API_KEYS' },
    ]);
    expect(apiConfigProblems(testConfig({ MANAGER_API_KEYS: 'manager:k1' }))).toMatchObject([
      { variable: 'MANAGER_API_KEYS' },
    ]);
    expect(
      apiConfigProblems(
        testConfig({ MANAGER_API_KEY: 'm-key', MANAGER_API_KEYS: 'dana:d-key,owen:o-key', API_KEY: 'c-key' }),
      ),
    ).toEqual([]);
    expect(() => testConfig({ MANAGER_API_KEYS: 'no-colon-here' })).toThrow(/MANAGER_API_KEYS: each entry/);
  });

  it('a shared tool server (MCP_URL) without the agent key is refused at start, not on the first customer', () => {
    expect(apiConfigProblems(testConfig({ MCP_URL: 'http://127.0.0.1:3001/mcp' }))).toMatchObject([
      { variable: 'MCP_API_KEY' },
    ]);
    expect(
      apiConfigProblems(testConfig({ MCP_URL: 'http://127.0.0.1:3001/mcp', MCP_API_KEY: 'a'.repeat(32) })),
    ).toEqual([]);
  });

  it('npm start on 0.0.0.0 without API_KEY refuses with one clear message (exit 2), ' +
    'before touching the database', async () => {
    const db = await createEmptyDatabase();
    dbs.push(db);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-exposure-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      env: childEnv({
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        HOST: '0.0.0.0',
        PORT: String(await freePort()),
        LOCAL_SLACK_PORT: '0',
        API_KEY: '',
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      // The old behaviour: it started anyway. Stop it so the test fails fast instead of hanging.
      if (out.includes('support agent ready')) child.kill('SIGTERM');
    });
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(out).not.toContain('support agent ready');
    expect(code).toBe(2);
    expect(err).toMatch(/API_KEY: /);
    expect(err).not.toMatch(/at .*\.ts:\d+/);
    const tables = await db.pool.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.rows[0].n).toBe(0);
  }, 60_000);
});
