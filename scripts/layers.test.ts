import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The layer rules, read from the imports themselves so that a shortcut across layers fails here
 * instead of in a review. Imports go downward only; a folder may skip layers. The agent and the
 * bot reach the tool server only through the contract in schema/tools (their tests may start a
 * real server; test code may wire any layers but those of scripts/). local-slack/ stands in for
 * Slack's cloud, so it must work without the product.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Higher imports lower; equal ranks are separate rooms and do not import each other. */
const RANK: Record<string, number> = {
  core: 0,
  schema: 1,
  'mcp-server': 2,
  agent: 3,
  bot: 4,
  evals: 4,
  scripts: 5,
};
const LOCAL_SLACK = 'local-slack';
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/**
 * Imports that break a rule today, each with the way out. The bot's whole-product tests start the
 * product through its composition root in scripts/; they belong beside it, or the composition
 * moves down. Listed here so that nothing new joins them, and checked so that a fixed one leaves.
 */
const KNOWN: Record<string, string> = {
  'bot/e2e.test.ts -> scripts/product.ts': 'composes the product through scripts/product.ts',
  'bot/testing/stack.ts -> scripts/product.ts': 'composes the product through scripts/product.ts',
};

interface Import {
  file: string;
  specifier: string;
  target: string;
}

/** The room a repo-relative path belongs to; local-slack counts as its own, wherever it sits. */
export function roomOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === LOCAL_SLACK || (parts[0] === 'bot' && parts[1] === LOCAL_SLACK)) return LOCAL_SLACK;
  return parts.length > 1 ? parts[0] : undefined;
}

const isTestCode = (path: string) => /\.test\.ts$/.test(path) || path.split('/').includes('testing');

/** Module specifiers of static imports/exports, side-effect imports and dynamic `import()`. */
export function specifiersOf(source: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  return [...source.matchAll(re)].map((m) => m[1]!);
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function productImports(): Import[] {
  const imports: Import[] = [];
  for (const full of tsFiles(ROOT)) {
    const file = relative(ROOT, full).split(sep).join('/');
    if (!roomOf(file)) continue;
    for (const specifier of specifiersOf(readFileSync(full, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      imports.push({ file, specifier, target: target.replace(/\.js$/, '.ts') });
    }
  }
  return imports;
}

/** Why an import breaks a rule, or undefined when it is allowed. */
export function violation(file: string, target: string): string | undefined {
  const from = roomOf(file);
  const to = roomOf(target);
  if (target.startsWith('../')) return 'reaches outside the repository';
  if (!from || !to || from === to) return undefined;
  if (from === LOCAL_SLACK) return 'local-slack/ imports nothing of the product';
  if (to === LOCAL_SLACK) return undefined;
  const fromRank = RANK[from];
  const toRank = RANK[to];
  if (fromRank === undefined || toRank === undefined) return `unknown room ${fromRank === undefined ? from : to}`;
  // Test code wires real layers together (a seeded database, a live tool server), but never
  // reaches into scripts/, where the product is composed.
  const upwardAllowed = isTestCode(file) && to !== 'scripts';
  if (toRank >= fromRank && !upwardAllowed) return `${from}/ may not import ${to}/ (imports go downward only)`;
  if ((from === 'agent' || from === 'bot') && to === 'mcp-server' && !isTestCode(file)) {
    return `${from}/ uses the tool contract in schema/tools, not the tool server`;
  }
  return undefined;
}

describe('layers', () => {
  it('finds the imports it checks', () => {
    const imports = productImports();
    expect(imports.length).toBeGreaterThan(100);
    expect(imports.some((i) => roomOf(i.file) === 'agent' && roomOf(i.target) === 'schema')).toBe(true);
  });

  it('every import goes downward, the agent and the bot never import the tool server', () => {
    const broken = productImports()
      .map((i) => ({ ...i, why: violation(i.file, i.target) }))
      .filter((i) => i.why && !KNOWN[`${i.file} -> ${i.target}`])
      .map((i) => `${i.file}: '${i.specifier}': ${i.why}`);
    expect(broken).toEqual([]);
  });

  it('every known exception still exists and still breaks a rule', () => {
    const seen = new Set(productImports().map((i) => `${i.file} -> ${i.target}`));
    const stale = Object.keys(KNOWN).filter((k) => {
      const [file, target] = k.split(' -> ') as [string, string];
      return !seen.has(k) || !violation(file, target);
    });
    expect(stale).toEqual([]);
  });

  it('the rules catch what they are meant to catch', () => {
    expect(violation('core/connect-database.ts', 'schema/migrate.ts')).toBeDefined();
    expect(violation('schema/tools/catalog.ts', 'mcp-server/registry.ts')).toBeDefined();
    expect(violation('mcp-server/stdio.ts', 'scripts/run-main.ts')).toBeDefined();
    expect(violation('agent/graph.ts', 'mcp-server/registry.ts')).toBeDefined();
    expect(violation('bot/blocks/card.ts', 'mcp-server/tools/shared.ts')).toBeDefined();
    expect(violation('bot/app.ts', 'evals/run.ts')).toBeDefined();
    expect(violation('local-slack/server.ts', 'core/logger.ts')).toBeDefined();
    expect(violation('bot/local-slack/server.ts', 'bot/app.ts')).toBeDefined();
    expect(violation('agent/testing/harness.ts', 'scripts/product.ts')).toBeDefined();
    expect(violation('agent/testing/harness.ts', 'mcp-server/server.ts')).toBeUndefined();
    expect(violation('core/testing/test-database.ts', 'schema/migrate.ts')).toBeUndefined();
    expect(violation('bot/e2e.test.ts', 'mcp-server/server.ts')).toBeUndefined();
    expect(violation('bot/local-mode.ts', 'local-slack/index.ts')).toBeUndefined();
    expect(violation('scripts/product.ts', 'mcp-server/email-dispatcher.ts')).toBeUndefined();
    expect(violation('agent/graph.ts', 'schema/tools/catalog.ts')).toBeUndefined();
  });

  it('reads every form of import', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "import './side-effect.js';",
      "const d = await import('./d.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(specifiersOf(source)).toEqual(['./a.js', '../b.js', './c.js', './side-effect.js', './d.js', 'zod']);
  });
});
