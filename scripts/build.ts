/**
 * `npm run build`: the product compiled to JavaScript in dist/ (what `npm run start:prod` and the
 * image run), plus the files the code reads from beside itself, so import.meta.url-relative paths
 * hold in dist as they do in the source tree.
 *
 * Flags: --out-dir <dir>  build there instead of dist/ (the build test).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files read at run time that are not TypeScript, as paths from the project folder. */
const BUILD_ASSETS = ['schema/migrations', 'local-slack/console.html'];

const flag = process.argv.indexOf('--out-dir');
const outArg = flag >= 0 ? process.argv[flag + 1] : 'dist';
if (!outArg) throw new Error('--out-dir needs a folder');
const out = path.resolve(ROOT, outArg);
// The folder is emptied first: never the project itself or a folder holding it.
if (!path.relative(out, ROOT).startsWith('..')) throw new Error(`refusing to build into ${out}`);

// A stale file from a module since removed would still be importable: start from nothing.
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', out], {
  cwd: ROOT,
  stdio: 'inherit',
});
for (const asset of BUILD_ASSETS) {
  cpSync(path.join(ROOT, asset), path.join(out, asset), {
    recursive: true,
    filter: (src) => !src.endsWith('.ts'),
  });
}
console.log(`built ${path.relative(ROOT, out) || out}`);
