import type { CaseResult } from './metrics.js';

/**
 * Progress while a set runs: a bar redrawn in place on a terminal, one line per case otherwise
 * (CI logs keep every line readable).
 */
export function progressReporter(
  label: string,
  out: { write(s: string): unknown; isTTY?: boolean } = process.stderr,
  width = 30,
  opts: { ids?: boolean } = {},
) {
  let failed = 0;
  // A frozen set's progress names no case: which ones fail is what it must not teach.
  const id = (r: CaseResult, pad = 0) => (opts.ids === false ? '' : ` ${r.id.slice(0, 40).padEnd(pad)}`);
  return (r: CaseResult, i: number, n: number) => {
    if (!r.ok) failed++;
    if (!out.isTTY) {
      out.write(`  ${label} [${String(i + 1).padStart(String(n).length)}/${n}] ${r.ok ? 'ok  ' : 'FAIL'}${id(r)}\n`);
      return;
    }
    out.write(`\r${progressBar(label, i + 1, n, failed, width)}${id(r, 40)}`);
    if (i + 1 === n) out.write('\n');
  };
}

/** "golden [#########.........]  42/213  3 failing". */
export function progressBar(label: string, done: number, total: number, failed: number, width = 30): string {
  const filled = total ? Math.round((done / total) * width) : width;
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  return `${label} [${bar}] ${String(done).padStart(String(total).length)}/${total}  ${failed} failing`;
}
