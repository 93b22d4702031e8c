import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FROZEN_SETS } from './gate.js';

/**
 * The holdout sets are frozen: they measure the planner and are never tuned to it. Any edit to a
 * case file (or a new or removed one) fails here until the set's FROZEN.sha256 is regenerated on
 * purpose (`cd evals/holdout && sha256sum *.json > FROZEN.sha256`), which shows in review.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));

export function manifestOf(dir: string): Map<string, string> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return new Map(
    files.map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(path.join(dir, f)))
        .digest('hex'),
    ]),
  );
}

export function parseManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** Files whose hash differs from the manifest, or that one side lacks. */
export function frozenDiff(actual: Map<string, string>, frozen: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [f, h] of actual) if (frozen.get(f) !== h) out.push(frozen.has(f) ? `changed: ${f}` : `new: ${f}`);
  for (const f of frozen.keys()) if (!actual.has(f)) out.push(`removed: ${f}`);
  return out;
}

describe('the holdout sets', () => {
  for (const set of FROZEN_SETS) {
    it(`${set} matches its frozen manifest (FROZEN.sha256)`, () => {
      const dir = path.join(HERE, set);
      const frozen = parseManifest(readFileSync(path.join(dir, 'FROZEN.sha256'), 'utf8'));
      expect(frozen.size).toBeGreaterThan(0);
      expect(frozenDiff(manifestOf(dir), frozen)).toEqual([]);
    });
  }

  it('notices an edited, added or removed file (the check can fail)', () => {
    const frozen = new Map([
      ['a.json', 'x'.repeat(64)],
      ['b.json', 'y'.repeat(64)],
    ]);
    const actual = new Map([
      ['a.json', 'z'.repeat(64)],
      ['c.json', 'y'.repeat(64)],
    ]);
    expect(frozenDiff(actual, frozen)).toEqual(['changed: a.json', 'new: c.json', 'removed: b.json']);
    expect(parseManifest(`${'a'.repeat(64)}  f.json\n`)).toEqual(new Map([['f.json', 'a'.repeat(64)]]));
  });
});
