/**
 * The bench measures what ships: the product compiled to JavaScript (npm run build), its stdio tool
 * server child compiled too (agent/tool-server-command.ts picks dist JS beside compiled code), and
 * the bare flow compiled the same way, so neither side pays tsx's loader and esbuild.
 *
 * Built once per run into a temporary folder (never dist/, which holds no bench code): the same tsc
 * and tsconfig.build.json as `npm run build` plus the two bench workers as entries, without the type
 * check (npm test does that). The folder links the project's node_modules, so the output resolves
 * the packages it imports as dist/ does.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProduct, PROJECT_ROOT } from '../build-product.js';

export interface CompiledTree {
  /** The build's root: `<root>/scripts/bench/product-worker.js` and so on. */
  root: string;
  remove(): void;
}

export const BENCH_ENTRIES = ['scripts/bench/product-worker.ts', 'scripts/bench/bare-worker.ts'];

export function compileForBench(): CompiledTree {
  const dir = mkdtempSync(path.join(tmpdir(), 'support-agent-bench-build-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const root = path.join(dir, 'tree');
    buildProduct(root, { extraEntries: BENCH_ENTRIES, typeCheck: false });
    return { root, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
