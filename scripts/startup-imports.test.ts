import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * What a process loads before it serves is memory it holds for its whole life (issue 12: an idle
 * worker and its tool server within 200 MB). Packages only one configuration uses are imported
 * where that configuration is chosen, with `await import()`; this reads the static imports from
 * each entry point and fails when one of them comes back on the start-up path.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Static imports and re-exports that load a module (`import type` / `export type` load nothing). */
function staticSpecifiers(source: string): string[] {
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/gm;
  return [...source.matchAll(re)].filter((m) => !m[2]).map((m) => m[3]!);
}

/** Every project file and package an entry point loads statically, with the chain that pulls each in. */
function startupGraph(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    for (const spec of staticSpecifiers(readFileSync(join(ROOT, file), 'utf8'))) {
      if (spec.startsWith('node:')) continue;
      const chain = [...reached.get(file)!];
      if (!spec.startsWith('.')) {
        // Packages by their full specifier: a subpath (chrono-node/en) loads less than the root.
        if (!reached.has(spec)) reached.set(spec, [...chain, spec]);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts');
      if (reached.has(target) || !existsSync(join(ROOT, target))) continue;
      reached.set(target, [...chain, target]);
      queue.push(target);
    }
  }
  return reached;
}

/** The chains that reach anything `banned` matches: empty when the entry point stays lean. */
const offenders = (entry: string, banned: RegExp) =>
  [...startupGraph(entry)].filter(([name]) => banned.test(name)).map(([, chain]) => chain.join(' > '));

describe('start-up imports', () => {
  it('reads the static imports it walks, and not the type-only ones', () => {
    const graph = startupGraph(relative(ROOT, join(ROOT, 'scripts', 'start.ts')));
    expect(graph.has('core/config.ts')).toBe(true);
    expect(graph.has('zod')).toBe(true);
    expect(staticSpecifiers(`import type { A } from 'a';\nexport type { B } from 'b';\nimport 'c';`)).toEqual(['c']);
  });

  it("the worker's stdio tool server child loads no LangChain (its parent applied the schema)", () => {
    expect(offenders('mcp-server/stdio.ts', /^(@langchain\/|langsmith\b)/)).toEqual([]);
  });

  it('a worker loads the Gemini client, the offline planner, tracing and the local Slack only when configured', () => {
    // chrono-node is not here: the prompt reads a booking change's dates with the offline analysis too.
    const banned = /^(@langchain\/google-genai|libphonenumber-js|@langfuse\/|@opentelemetry\/|local-slack\/)/;
    expect(offenders('scripts/start.ts', banned)).toEqual([]);
  });

  it('pino-pretty only for a terminal, in the worker and in its tool server', () => {
    expect(offenders('scripts/start.ts', /^pino-pretty\b/)).toEqual([]);
    expect(offenders('mcp-server/stdio.ts', /^pino-pretty\b/)).toEqual([]);
  });
});
