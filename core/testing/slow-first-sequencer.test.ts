import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLOW_FIRST, slowFirst } from './slow-first-sequencer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('slowFirst', () => {
  it('puts the listed files first, in list order, and keeps the order of the rest', () => {
    const files = ['a.test.ts', 'slow-2.test.ts', 'b.test.ts', 'slow-1.test.ts', 'c.test.ts'];
    expect(slowFirst(files, (f) => f, ['slow-1.test.ts', 'slow-2.test.ts'])).toEqual([
      'slow-1.test.ts',
      'slow-2.test.ts',
      'a.test.ts',
      'b.test.ts',
      'c.test.ts',
    ]);
  });

  it('names only test files that exist (a renamed file would silently run last again)', () => {
    for (const f of SLOW_FIRST) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
  });
});
