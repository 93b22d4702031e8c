import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

let out: string;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** `@scope/name/sub.js` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'build-'));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out-dir', out], { cwd: ROOT });
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run build', () => {
  it('emits the entry points production runs, with source maps', () => {
    for (const entry of ['scripts/start.js', 'scripts/migrate.js', 'mcp-server/stdio.js', 'mcp-server/http.js']) {
      expect(existsSync(path.join(out, entry)), entry).toBe(true);
      expect(existsSync(path.join(out, `${entry}.map`)), `${entry}.map`).toBe(true);
    }
  });

  it('copies the files the code reads beside itself: migrations and the local Slack console', () => {
    const sql = readdirSync(path.join(ROOT, 'schema', 'migrations')).filter((f) => f.endsWith('.sql'));
    expect(sql.length).toBeGreaterThan(0);
    expect(readdirSync(path.join(out, 'schema', 'migrations')).sort()).toEqual(sql.sort());
    expect(existsSync(path.join(out, 'local-slack', 'console.html'))).toBe(true);
  });

  it('holds no tests, test helpers or evals', () => {
    const js = filesUnder(out).filter((f) => f.endsWith('.js'));
    expect(js.filter((f) => /\.test\.js$|[/\\]testing[/\\]|[/\\]evals[/\\]/.test(f))).toEqual([]);
  });

  it('imports only production dependencies (the image installs no others)', () => {
    const bare = new Set<string>();
    for (const f of filesUnder(out).filter((p) => p.endsWith('.js'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)'([^'.][^']*)'/g)) {
        if (!m[1]!.startsWith('node:')) bare.add(packageOf(m[1]!));
      }
    }
    expect(bare.size).toBeGreaterThan(0);
    expect([...bare].filter((p) => !(p in pkg.dependencies))).toEqual([]);
  });
});
