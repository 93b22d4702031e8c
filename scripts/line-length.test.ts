import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Lines of code stay readable side by side in a review: at most 120 characters. Biome's formatter
 * keeps code there; this catches what it can't break (strings, regexes, comments). Data files
 * (the demo seed) are exempt.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['agent', 'bot', 'core', 'evals', 'local-slack', 'mcp-server', 'schema', 'scripts'];
const DATA = [/^schema\/seed\//];
const MAX = 120;

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules') yield* sources(full);
    } else if (/\.(ts|sh)$/.test(name)) {
      yield full;
    }
  }
}

describe('habits', () => {
  it(`no line of code is longer than ${MAX} characters (data files aside)`, () => {
    const long: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of sources(path.join(ROOT, folder))) {
        const rel = path.relative(ROOT, file).split(path.sep).join('/');
        if (DATA.some((re) => re.test(rel))) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (line.length > MAX) long.push(`${rel}:${i + 1} (${line.length})`);
          });
      }
    }
    expect(long).toEqual([]);
  });
});
