import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../core/testing/test-database.js';
import { OfflinePlanner } from '../agent/model/offline/index.js';
import { loadCases, type EvalCase } from './case-schema.js';
import { htmlReport } from './html-report.js';
import type { GeminiRequestBody } from '../agent/model/gemini.js';
import { summarizeTokens, textTokenCounter, tokenPieces } from './prompt-tokens.js';
import { sideBySideTable, summaryText } from './report.js';
import { runEval, type EvalReport } from './run.js';

/*
 * The eval report carries the prompt tokens of its plan calls (counted on the request the Gemini
 * path would send, whatever planner answered), and every report format prints mean and p95.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
let db: TestDatabase;
let report: EvalReport;
let cases: EvalCase[];
const requests: GeminiRequestBody[] = [];
const model = new OfflinePlanner();

beforeAll(async () => {
  const all = loadCases(path.join(HERE, 'golden'));
  // One case of a few kinds: a question, a booking, a decision.
  cases = ['knowledge', 'booking', 'decision'].map((kind) => all.find((c) => c.kind === kind)!).filter(Boolean);
  const clock = new ManualClock(TEST_NOW);
  db = await createSeededDatabase({ clock });
  report = await runEval({
    cases,
    database: db,
    clock,
    model,
    modelName: 'offline-planner',
    onPlanRequest: (body) => requests.push(body),
  });
}, 120_000);

afterAll(async () => db?.drop());

describe('prompt tokens per plan call in the eval report', () => {
  it('counts every plan call of the run', () => {
    expect(cases.length).toBeGreaterThanOrEqual(2);
    const t = report.promptTokens!;
    expect(t).toBeDefined();
    const turns = report.runs.reduce((n, r) => n + r.turns.length, 0);
    expect(t.plan_calls).toBeGreaterThanOrEqual(turns);
    expect(t.mean).toBeGreaterThan(300);
    expect(t.mean).toBeLessThan(3000);
    expect(t.p95).toBeGreaterThanOrEqual(t.mean * 0.9);
    expect(t.max).toBeGreaterThanOrEqual(t.p95);
    expect(t.system + t.tools + t.contents).toBeGreaterThan(0);
    console.log(
      cases.map((c) => c.id),
      t,
    );
    expect(t.method).toMatch(/Gemma 3 tokenizer/);
  });

  it('puts the model back as it was', () => {
    expect(Object.hasOwn(model, 'bindTools')).toBe(false);
  });

  it('prints mean and p95 in the text report, the side-by-side table, the JSON and the HTML', () => {
    const t = report.promptTokens!;
    const cell = `${t.mean} / ${t.p95} (${t.plan_calls} calls)`;
    expect(summaryText(report)).toContain(`prompt tokens per plan call, mean / p95 (Gemini request): ${cell}`);
    const row = sideBySideTable({ golden: report })
      .split('\n')
      .find((l) => l.startsWith('prompt tokens per plan call, mean / p95'));
    expect(row).toContain(cell);
    expect(JSON.parse(JSON.stringify(report)).promptTokens).toMatchObject({ mean: t.mean, p95: t.p95 });
    expect(htmlReport({ golden: { report, cases } })).toContain(`mean / p95: ${cell}`);
  });

  it('summarizes with the nearest-rank p95', () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ system: 0, tools: 0, contents: 0, total: (i + 1) * 10 }));
    expect(summarizeTokens(calls)).toMatchObject({ plan_calls: 20, mean: 105, p95: 190, max: 200 });
    expect(summarizeTokens([])).toMatchObject({ plan_calls: 0, mean: 0, p95: 0 });
  });
});

describe('counting a text in pieces', () => {
  const whole = textTokenCounter({ whole: true });
  const pieces = textTokenCounter();

  it('counts what one encode of the whole text counts, on the requests of a run', () => {
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const body of requests)
      for (const text of [
        (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n'),
        JSON.stringify(body.tools ?? []),
        JSON.stringify(body.contents),
      ])
        expect(pieces(text), text.slice(0, 80)).toBe(whole(text));
  });

  it('counts the same on the edges of a cut: runs of spaces, newlines, "> </", emoji, markup', () => {
    const texts = [
      'a  b   c    d',
      ' leading and trailing  ',
      'line one\n line two\n\n  three',
      '<p> </p> <b>bold</b> > </ x',
      'tv 📺 on the wall 😭 pls 🙏',
      '{"a": "b c", "d": [1, 2, 3]}',
      'tab\there\t and  \t mixed',
    ];
    for (const text of texts) expect(pieces(text), text).toBe(whole(text));
  });

  it('does not cut before a space after ">", where the vocabulary has a token across it', () => {
    expect(tokenPieces('<b> </b>')).toEqual(['<b> </b>']);
    expect(tokenPieces('a b  c')).toEqual(['a', ' b', '  c']);
  });
});
