import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCases } from './case-schema.js';

/**
 * Every case folder must load, not only the ones the gate runs: `npm run eval -- --cases evals/open`
 * once failed because a fixed round left an empty file behind, which the loader refuses.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FOLDERS = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(path.join(HERE, d.name)).some((f) => f.endsWith('.json')))
  .map((d) => d.name);

describe('case folders', () => {
  it('include the golden, holdout and open sets', () => {
    expect(FOLDERS).toEqual(expect.arrayContaining(['golden', 'holdout', 'holdout-2', 'open']));
  });

  for (const folder of FOLDERS) {
    it(`${folder} loads, every file with at least one case`, () => {
      const cases = loadCases(path.join(HERE, folder));
      expect(cases.length).toBeGreaterThan(0);
    });
  }
});
