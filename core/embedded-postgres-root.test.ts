import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = process.cwd();
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const outer = mkdtempSync(path.join(tmpdir(), 'support-agent-private-'));
afterAll(() => rmSync(outer, { recursive: true, force: true }));

/**
 * Root's home is mode 700 on most systems, and a clone there is where a new user starts. As root
 * the embedded Postgres runs as the `postgres` system user, which can't enter such a folder: both
 * the binaries under node_modules and the data folder must be reachable by it anyway.
 */
describe.runIf(isRoot)('embedded Postgres as root in a folder only root can enter', () => {
  it('starts, answers a query and stops', () => {
    chmodSync(outer, 0o700);
    const clone = path.join(outer, 'clone');
    mkdirSync(clone);
    // A copy of the checkout that matters here: the module and node_modules (hard links: fast).
    execFileSync('cp', ['-al', path.join(root, 'node_modules'), path.join(clone, 'node_modules')]);
    // Copies, not links: a module resolves its packages from where it really is.
    for (const f of ['core', 'package.json', 'tsconfig.json'])
      cpSync(path.join(root, f), path.join(clone, f), { recursive: true });
    const script = path.join(clone, 'probe.ts');
    writeFileSync(
      script,
      [
        "import { startEmbeddedPostgres } from './core/embedded-postgres.ts';",
        "import pg from 'pg';",
        `const h = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(path.join(clone, '.data'))} });`,
        'const c = new pg.Client({ connectionString: h.url });',
        'await c.connect();',
        "const r = await c.query('SELECT 41 + 1 AS n');",
        'await c.end();',
        'await h.stop();',
        "console.log('answer', r.rows[0].n);",
      ].join('\n'),
    );
    const run = spawnSync(path.join(clone, 'node_modules', '.bin', 'tsx'), [script], {
      cwd: clone,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.stderr + run.stdout).toContain('answer 42');
    expect(run.status).toBe(0);
  }, 120_000);
});
