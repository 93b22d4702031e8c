import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The Dockerfile's build and start steps on this host (there is no Docker engine in CI): a fresh
// install, the build, a production-only install, and the compiled worker as a user who is not root.
describe('scripts/image-steps.sh', () => {
  it('builds, installs production dependencies only, and reaches a healthy compiled worker', () => {
    const env = { ...process.env };
    delete env.DATABASE_URL; // the script brings its own embedded Postgres; never migrate the test server
    const run = spawnSync('bash', [path.join(ROOT, 'scripts', 'image-steps.sh')], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      // About a minute on an idle machine; a runner busy with other work took 4 minutes.
      timeout: 420_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/healthz: \{"status":"ok".*"tool_server":"ok"/);
    expect(output).toMatch(/readyz: \{"status":"ready"/);
    expect(output).toMatch(/worker rss: \d+ MB/);
    expect(output).toMatch(/tool server rss: \d+ MB/);
    expect(output).toContain('image steps: healthy');
  }, 430_000);
});
