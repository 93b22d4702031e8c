import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from './config.js';
import { createEmptyDatabase, type TestDatabase } from './testing/test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createEmptyDatabase('runmain');
});
afterAll(async () => {
  await db?.drop();
});

function run(mode: string, applicationName = 'unused') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/testing/run-main-child.ts', mode, applicationName], {
    env: childEnv({ DATABASE_URL: db.url }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const logs: Record<string, any>[] = [];
  let stderr = '';
  const onLog: (() => void)[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr += `${line}\n`;
    if (line.startsWith('{')) logs.push(JSON.parse(line));
    for (const f of onLog) f();
  });
  const steps: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    steps.push((JSON.parse(line) as { step: string }).step);
    for (const f of onLog) f();
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      onLog.push(() => done() && resolve());
      void exited.then((code) => (done() ? resolve() : reject(new Error(`exited ${code}:\n${stderr}`))));
    });
  return { child, logs, steps, exited, until, stderr: () => stderr };
}

describe('runMain process guards', () => {
  it(
    'a lost connection (uncaught client error, unhandled rejection) ' +
      'and an unobserved rejection do not end the process',
    async () => {
      const name = `guard-${randomBytes(4).toString('hex')}`;
      const p = run('connection', name);
      await p.until(() => p.steps.includes('holding'));
      await p.until(() => p.logs.some((l) => l.msg === 'unhandled rejection'));
      for (let i = 0; i < 1000; i++) {
        const r = await db.pool.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
          [name],
        );
        if (r.rowCount) break;
        await new Promise((res) => setTimeout(res, 10));
      }
      await p.until(() => p.logs.some((l) => l.msg === 'database connection lost (uncaught)'));
      p.child.stdin.write('go\n');
      expect(await p.exited).toBe(0);
      expect(p.steps).toEqual(['holding', 'alive']);
      const byMsg = (m: string) => p.logs.find((l) => l.msg === m)!;
      expect(byMsg('database connection lost (unhandled rejection)').level).toBe(40);
      expect(byMsg('unhandled rejection').err.message).toBe('an unobserved failure');
      expect(byMsg('database connection lost (uncaught)').err.code).toBe('57P01');
      expect(p.stderr()).not.toMatch(/secretKey|connectionParameters/);
    },
  );

  it('any other uncaught exception still exits 1, logged', async () => {
    const p = run('bug');
    expect(await p.exited).toBe(1);
    const fatal = p.logs.find((l) => l.msg === 'uncaught exception, exiting');
    expect(fatal?.err.message).toBe('a programming error');
  });
});
