import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUSINESS } from '../schema/business/profile.js';
import { placeNames } from '../schema/business/service-area.js';
import { CUSTOMERS } from '../schema/seed/customers.js';
import { KB_ARTICLES } from '../schema/seed/kb-articles.js';

/**
 * The product works for whatever business the data describes: names of the demo business, its
 * customers, streets, towns and articles live in schema/ (seed and business data), never in the
 * agent, the bot or the tool server. Tests and test fixtures may name them.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['agent', 'bot', 'mcp-server'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' || e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && e.name !== 'testing.ts' ? [path] : [];
  });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole names, matched case-insensitively; single name parts only when written as a name (capitalised). */
function demoLiterals(): { phrases: string[]; nameParts: string[] } {
  const streets = CUSTOMERS.flatMap((c) => (c.address ? [c.address.line1.replace(/^\d+\w?\s+/, '')] : []));
  const towns = CUSTOMERS.flatMap((c) => (c.address ? [c.address.city] : []));
  const phrases = [
    ...CUSTOMERS.map((c) => c.name),
    ...streets,
    ...towns,
    ...placeNames(),
    ...KB_ARTICLES.map((a) => a.id),
    BUSINESS.shortName,
    ...CUSTOMERS.flatMap((c) => (c.email ? [c.email] : [])),
  ];
  const nameParts = CUSTOMERS.flatMap((c) => c.name.split(/\s+/)).filter((p) => p.length >= 3);
  return { phrases: [...new Set(phrases)], nameParts: [...new Set(nameParts)] };
}

describe('no demo data in product code', () => {
  it('names no demo customer, place, article or the demo business outside schema/', () => {
    const { phrases, nameParts } = demoLiterals();
    const phraseRe = new RegExp(`(?<![a-z0-9])(?:${phrases.map(escapeRegExp).join('|')})(?![a-z0-9])`, 'i');
    const partRe = new RegExp(`\\b(?:${nameParts.map(escapeRegExp).join('|')})\\b`);
    const hits: string[] = [];
    for (const file of SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = phraseRe.exec(line) ?? partRe.exec(line);
          if (m) hits.push(`${relative(ROOT, file)}:${i + 1}: ${m[0]}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
