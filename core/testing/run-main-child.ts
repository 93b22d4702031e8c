/**
 * An entry point under runMain, for the process-guard tests: `node --import tsx
 * core/testing/run-main-child.ts <mode> <application_name>`. `connection`: a bare pg client
 * (no 'error' listener, as a library might open one) whose backend the test terminates, plus two
 * rejections nobody handles; it waits for a line on stdin, then reports "alive" and exits 0.
 * `bug`: an ordinary exception thrown from a timer, which must still end the process (exit 1).
 */
import { createInterface } from 'node:readline';
import pg from 'pg';
import { loadConfig } from '../config.js';
import { runMain } from '../run-main.js';

const [mode, applicationName] = process.argv.slice(2);
const report = (step: string) => process.stdout.write(`${JSON.stringify({ step })}\n`);

await runMain(async () => {
  if (mode === 'bug') {
    setTimeout(() => {
      throw new Error('a programming error');
    }, 0);
    await new Promise((r) => setTimeout(r, 60_000));
    return;
  }
  const client = new pg.Client({ connectionString: loadConfig().DATABASE_URL, application_name: applicationName });
  await client.connect();
  void Promise.reject(new Error('Connection terminated unexpectedly'));
  void Promise.reject(new Error('an unobserved failure'));
  report('holding');
  await createInterface({ input: process.stdin })[Symbol.asyncIterator]().next();
  report('alive');
  process.exit(0);
});
