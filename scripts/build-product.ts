/**
 * The build `npm run build` runs (scripts/build.ts), as a function the bench reuses: tsc with
 * tsconfig.build.json into a folder, then the files the code reads from beside itself, so
 * import.meta.url-relative paths hold in the output as they do in the source tree.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files read at run time that are not TypeScript, as paths from the project folder. */
const BUILD_ASSETS = ['schema/migrations', 'local-slack/console.html'];

export interface BuildOptions {
  /** More entry points (project-relative .ts paths) beside those of tsconfig.build.json. */
  extraEntries?: string[];
  /**
   * false: emit without type-checking (`tsc --noCheck`: the same JavaScript, in a third of the
   * time). For the bench only; `npm run build` and `npm test` check.
   */
  typeCheck?: boolean;
}

export function buildProduct(outDir: string, opts: BuildOptions = {}): void {
  const out = path.resolve(PROJECT_ROOT, outDir);
  // The folder is emptied first: never the project itself or a folder holding it.
  if (!path.relative(out, PROJECT_ROOT).startsWith('..')) throw new Error(`refusing to build into ${out}`);
  // A stale file from a module since removed would still be importable: start from nothing.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const buildConfig = path.join(PROJECT_ROOT, 'tsconfig.build.json');
  let project = buildConfig;
  if (opts.extraEntries?.length) {
    // tsc takes no extra files beside -p: a config of our own that extends the build's. It lives in
    // the output folder (removed with it); rootDir stays the project's, as the base config says.
    const base = JSON.parse(readFileSync(buildConfig, 'utf8')) as { files: string[] };
    project = path.join(out, 'tsconfig.entries.json');
    const files = [...base.files, ...opts.extraEntries].map((f) => path.join(PROJECT_ROOT, f));
    writeFileSync(project, JSON.stringify({ extends: buildConfig, files }));
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', project, '--outDir', out, ...(opts.typeCheck === false ? ['--noCheck'] : [])];
  try {
    execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: 'inherit' });
  } finally {
    if (project !== buildConfig) rmSync(project, { force: true });
  }
  for (const asset of BUILD_ASSETS) {
    cpSync(path.join(PROJECT_ROOT, asset), path.join(out, asset), {
      recursive: true,
      filter: (src) => !src.endsWith('.ts'),
    });
  }
}
