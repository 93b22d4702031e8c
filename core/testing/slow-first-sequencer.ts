import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files known to take minutes, longest first. On a fresh clone vitest has no timings and runs
 * the largest files first, and these are small files, so they started last and ran with the other
 * core idle (a clean CI run spent ~3 minutes on the short chaos run alone at the end). Starting
 * them first lets the many short files fill the other core around them.
 */
export const SLOW_FIRST: readonly string[] = [
  'scripts/chaos/chaos-short.test.ts',
  'evals/eval.test.ts',
  'scripts/image-steps.test.ts',
  'scripts/bench/bench.test.ts',
];

/** Orders `files` with the SLOW_FIRST ones ahead (in that order), the rest as `rest` had them. */
export function slowFirst<T>(files: readonly T[], relativePath: (f: T) => string, slow = SLOW_FIRST): T[] {
  const rank = (f: T) => {
    const i = slow.indexOf(relativePath(f).split(path.sep).join('/'));
    return i < 0 ? slow.length : i;
  };
  return files
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ f }) => f);
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return slowFirst(await super.sort(files), (spec) => path.relative(root, spec.moduleId));
  }
}
