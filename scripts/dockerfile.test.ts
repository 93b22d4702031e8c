import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORKER_NODE_FLAGS } from './worker-node-flags.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Stage {
  name: string;
  /** Instructions with continuation lines joined: [keyword, rest]. */
  steps: [string, string][];
}

/** The Dockerfile read simply: comments dropped, `\` continuations joined, split into FROM stages. */
export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: /\sAS\s+(\S+)/i.exec(rest)?.[1] ?? String(stages.length), steps: [] });
    }
    stages.at(-1)?.steps.push([keyword.toUpperCase(), rest]);
  }
  return stages;
}

const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const build = stages[0]!;
const runtime = stages.at(-1)!;
const copies = (s: Stage) => s.steps.filter(([k]) => k === 'COPY').map(([, rest]) => rest.split(/\s+/));
const runs = (s: Stage) => s.steps.filter(([k]) => k === 'RUN').map(([, rest]) => rest);
const dockerignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('the Dockerfile', () => {
  it('has a build stage and a separate runtime stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runs(build).some((r) => /npm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(runs(build).some((r) => r.includes('npm run build'))).toBe(true);
  });

  it('copies from the context only files that exist and the context does not ignore', () => {
    for (const stage of stages) {
      for (const args of copies(stage).filter((a) => !a.some((x) => x.startsWith('--from')))) {
        for (const src of args.slice(0, -1)) {
          expect(existsSync(path.join(ROOT, src)), `${stage.name}: COPY ${src}`).toBe(true);
          expect(dockerignore, `${stage.name}: COPY ${src}`).not.toContain(src);
        }
      }
    }
  });

  it('copies into the build stage every folder the build compiles', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const listed = execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const folders = new Set(
      listed
        .split('\n')
        .map((f) => path.relative(ROOT, f.trim()))
        .filter((f) => f && !f.startsWith('..') && !f.startsWith('node_modules'))
        .map((f) => f.split(path.sep)[0]!),
    );
    expect(folders.size).toBeGreaterThan(0);
    const copied = new Set(copies(build).flatMap((a) => a.slice(0, -1)));
    expect([...folders].filter((f) => !copied.has(f))).toEqual([]);
    expect(copied).toContain('tsconfig.build.json');
  });

  it('runs with production dependencies only, from dist, as a user who is not root', () => {
    expect(runs(runtime).some((r) => /npm ci\b.*--omit=dev/.test(r))).toBe(true);
    // Nothing of the source tree: the build stage's dist and the package files.
    for (const args of copies(runtime)) {
      if (args.some((x) => x.startsWith('--from'))) {
        expect(args).toContain(`--from=${build.name}`);
      } else {
        expect(args.slice(0, -1).every((f) => f === 'package.json' || f === 'package-lock.json')).toBe(true);
      }
    }
    const user = runtime.steps.filter(([k]) => k === 'USER').at(-1)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user!.split(':')[0]);
    const cmd = runtime.steps.filter(([k]) => k === 'CMD').at(-1)?.[1] ?? '';
    expect(JSON.parse(cmd)).toEqual(['node', ...WORKER_NODE_FLAGS, 'dist/scripts/start.js']);
    expect(cmd).not.toMatch(/tsx/);
  });

  it('checks health on the worker', () => {
    const check = runtime.steps.find(([k]) => k === 'HEALTHCHECK')?.[1] ?? '';
    expect(check).toMatch(/\/(healthz|readyz)/);
  });
});

describe("the worker's V8 flags", () => {
  const command = `node ${WORKER_NODE_FLAGS.join(' ')} dist/scripts/start.js`;

  it('are the same in npm run start:prod and in the image steps as in the image', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start:prod']).toBe(command);
    const steps = readFileSync(path.join(ROOT, 'scripts', 'image-steps.sh'), 'utf8');
    expect(steps).toContain(`  ${command} >`);
  });
});
