import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCaseFile, type EvalCase } from './case-schema.js';
import { expandCases, resolveDate, resolveDates } from './case-clock.js';
import { diffSet } from './baseline.js';
import { FROZEN_SETS, isFrozen, loadThresholds } from './gate.js';
import { htmlReport } from './html-report.js';
import { checkIndependence } from './independence.js';
import { argMismatches, groundingProblems, METRIC_NAMES, rowProblems, scoreRuns, toolsMatch } from './metrics.js';
import { progressBar, progressReporter } from './progress.js';
import { passHatK, summarizeRepeats } from './repeat.js';
import { failuresText } from './report.js';
import { observeCall, type EvalReport, type ObservedDecision } from './run.js';
import { caseRun, observedTurn } from './testing.js';

const turn = observedTurn;
const run = caseRun;
const one = (c: Omit<EvalCase, 'kind' | 'customer'> & Partial<EvalCase>): EvalCase => ({
  kind: 'booking',
  customer: 'cus_001',
  ...c,
});
const decision = (over: Partial<ObservedDecision>): ObservedDecision => ({
  decision: 'approve',
  approvals: [],
  reply: '',
  calls: [],
  ...over,
});

describe('tools_allowed and one_of for tools', () => {
  it('sets allowed reads aside, any number of times, but nothing else', () => {
    expect(toolsMatch(['book_slot'], ['lookup_customer', 'book_slot', 'lookup_customer'], ['lookup_customer'])).toBe(
      true,
    );
    expect(toolsMatch([], ['search_knowledge_base'], ['search_knowledge_base'])).toBe(true);
    // Fails: an extra write, a missing required tool, an extra read that is not allowed.
    expect(toolsMatch([], ['update_customer'], ['lookup_customer'])).toBe(false);
    expect(toolsMatch(['lookup_customer'], [], ['search_knowledge_base'])).toBe(false);
    expect(toolsMatch(['book_slot'], ['book_slot', 'lookup_customer'])).toBe(false);
  });

  it('accepts any of several multisets', () => {
    const e = { one_of: [['create_ticket'], ['book_slot']] };
    expect(toolsMatch(e, ['book_slot'])).toBe(true);
    expect(toolsMatch(e, ['create_ticket'])).toBe(true);
    expect(toolsMatch(e, ['update_customer'])).toBe(false);
  });

  it('refuses a write in tools_allowed', () => {
    const bad = JSON.stringify([
      { id: 'x', kind: 'booking', customer: null, turns: [{ message: 'm', expect: { tools_allowed: ['book_slot'] } }] },
    ]);
    expect(() => parseCaseFile(bad)).toThrow(CaseFileError);
  });
});

describe('one_of for argument values', () => {
  it('matches any alternative, instants included, and says what it wanted', () => {
    const e = { category: { $one_of: ['complaint', 'damage'] }, at: { $one_of: ['2026-12-09T16:00:00-05:00'] } };
    expect(argMismatches(e, { category: 'damage', at: '2026-12-09T21:00:00Z' })).toEqual([]);
    expect(argMismatches(e, { category: 'billing', at: '2026-12-09T21:00:00Z' })).toEqual([
      'category: expected one of "complaint" | "damage", got "billing"',
    ]);
  });
});

describe('per-case clock', () => {
  const MON = '2026-12-07T09:00:00-05:00';
  it('resolves weekdays to the first such day after today, plus weeks', () => {
    expect(resolveDate('fri 10:00', MON).toISOString()).toBe('2026-12-11T15:00:00.000Z');
    expect(resolveDate('mon 10:00', MON).toISOString()).toBe('2026-12-14T15:00:00.000Z'); // not today
    expect(resolveDate('fri+1w 10:00', MON).toISOString()).toBe('2026-12-18T15:00:00.000Z'); // the friday after next
    expect(resolveDate('tomorrow 12:00', '2026-12-12T10:00:00-05:00').toISOString()).toBe('2026-12-13T17:00:00.000Z');
    expect(resolveDate('fri 10:00', '2026-12-11T09:00:00-05:00').toISOString()).toBe('2026-12-18T15:00:00.000Z');
    expect(() => resolveDate('next friday', MON)).toThrow(SyntaxError);
  });

  it('repeats a weekdays:"all" case from each of 7 days at its time of day', () => {
    const cases = expandCases(
      [one({ id: 'w', weekdays: 'all', now: '2026-12-07T16:30:00-05:00', turns: [{ message: 'm', expect: {} }] })],
      MON,
    );
    expect(cases.map((c) => c.id)).toEqual(['w@mon', 'w@tue', 'w@wed', 'w@thu', 'w@fri', 'w@sat', 'w@sun']);
    expect(cases[6]!.now).toBe('2026-12-13T21:30:00.000Z');
    expect(() => expandCases([one({ id: 'p', now: '2026-12-01T09:00:00-05:00', turns: [] })], MON)).toThrow(RangeError);
  });

  it('scores $date against the run clock, so the same case can fail from another day', () => {
    const c = one({
      id: 'd',
      turns: [{ message: 'm', expect: { args: { book_slot: { start_time: { $date: 'fri 10:00' } } } } }],
    });
    const call = observeCall('book_slot', {
      customer_id: 'cus_001',
      service_id: 'svc_handyman_hour',
      start_time: '2026-12-11T10:00:00-05:00',
    });
    expect(scoreRuns([c], [run('d', [turn({ calls: [call] })], '2026-12-07T14:00:00.000Z')]).cases[0]!.ok).toBe(true);
    expect(scoreRuns([c], [run('d', [turn({ calls: [call] })], '2026-12-11T14:00:00.000Z')]).cases[0]!.ok).toBe(false);
    expect(resolveDates({ a: [{ $date: 'sat 9:00' }] }, MON)).toEqual({ a: ['2026-12-12T14:00:00.000Z'] });
  });
});

describe('end state (rows / no_rows)', () => {
  const rows = { bookings: [{ id: 'BKG-1', customer_id: 'cus_1', starts_at: '2026-12-09T15:00:00.000Z' }] };
  it('matches rows partially (instants compared as instants), and finds rows that must not exist', () => {
    expect(
      rowProblems({ rows: { bookings: [{ customer_id: 'cus_1', starts_at: '2026-12-09T10:00:00-05:00' }] } }, rows),
    ).toEqual([]);
    expect(rowProblems({ rows: { bookings: [{ customer_id: 'cus_2' }] } }, rows)[0]).toMatch(/no bookings row matches/);
    expect(rowProblems({ no_rows: { bookings: [{ customer_id: 'cus_1' }] } }, rows)[0]).toMatch(/none should/);
    expect(rowProblems({ rows: { tickets: [{ id: 'T' }] } }, rows)).toEqual(['end state: tickets was not read']);
  });

  it('counts in task completion', () => {
    const c = one({
      id: 'e',
      turns: [{ message: 'm', expect: { no_rows: { bookings: [{ customer_id: 'cus_1' }] } } }],
    });
    const r = scoreRuns([c], [run('e', [turn({ rows })])]);
    expect(r.cases[0]!.ok).toBe(false);
    expect(r.metrics.task_completion.k).toBe(0);
  });
});

describe('grounding (reply_from_article)', () => {
  const articles = [
    { id: 'kb-a', body: 'Refunds are sent within 2 business days. Card refunds appear within 5 to 10 business days.' },
    { id: 'kb-b', body: 'Deposits of 25% are taken at booking for visits totalling 300 dollars or more always.' },
  ];
  const want = { article: 'kb-a', fact: '5 to 10 business days' };
  it('passes a reply carrying the fact', () => {
    expect(groundingProblems('Usually 5 to 10 business days.', want, articles)).toEqual([]);
  });
  it('fails a reply without the fact, or one quoting another article', () => {
    expect(groundingProblems('Soon!', want, articles)).toEqual([
      'grounding: reply lacks "5 to 10 business days" (kb-a)',
    ]);
    const quoting = 'It takes 5 to 10 business days. Deposits of 25% are taken at booking for visits totalling 300.';
    expect(groundingProblems(quoting, want, articles)[0]).toMatch(/quotes kb-b/);
    expect(groundingProblems(quoting, { ...want, also: ['kb-b'] }, articles)).toEqual([]);
  });
  it('flags a fact that is not in the named article as a case error', () => {
    expect(groundingProblems('x', { article: 'kb-b', fact: 'business days' }, articles)[0]).toMatch(/case error/);
  });
  it('is its own metric', () => {
    expect(METRIC_NAMES).toContain('grounding');
    const c = one({
      id: 'g',
      kind: 'knowledge',
      turns: [
        {
          message: 'm',
          expect: {
            reply_from_article: { article: 'kb-payment-and-refunds-04', fact: '5 to 10 business days' },
          },
        },
      ],
    });
    const ok = scoreRuns([c], [run('g', [turn({ reply: 'Within 5 to 10 business days.' })])]);
    const bad = scoreRuns([c], [run('g', [turn({ reply: 'We accept Visa.' })])]);
    expect([ok.metrics.grounding.k, ok.metrics.grounding.n, bad.metrics.grounding.k]).toEqual([1, 1, 0]);
  });
});

describe('per-approval decisions in one turn', () => {
  const c = one({
    id: 'pa',
    kind: 'decision',
    turns: [
      {
        message: 'm',
        expect: {},
        decide: [
          { decision: 'approve', tool: 'book_slot', expect: { executed: true } },
          { decision: 'reject', tool: 'update_customer', expect: { executed: false, reply_includes: ['call us'] } },
        ],
      },
    ],
  });
  const approved = decision({
    tool: 'book_slot',
    approvals: [{ id: 'a', tool: 'book_slot', args: {}, status: 'executed' }],
  });
  it('scores each decision on its own', () => {
    const good = decision({
      decision: 'reject',
      tool: 'update_customer',
      reply: 'Declined: please call us.',
      approvals: [{ id: 'b', tool: 'update_customer', args: {}, status: 'rejected' }],
    });
    const r = scoreRuns([c], [run('pa', [turn({ decisions: [approved, good] })])]);
    expect(r.cases[0]!.ok).toBe(true);
    expect(r.metrics.decision_truthfulness).toMatchObject({ k: 2, n: 2 });
  });
  it('fails when the rejected write ran anyway', () => {
    const ran = decision({
      decision: 'reject',
      tool: 'update_customer',
      reply: 'please call us',
      approvals: [{ id: 'b', tool: 'update_customer', args: {}, status: 'executed' }],
    });
    const r = scoreRuns([c], [run('pa', [turn({ decisions: [approved, ran] })])]);
    expect(r.metrics.decision_truthfulness).toMatchObject({ k: 1, n: 2 });
    expect(r.cases[0]!.failures[0]).toMatch(/after reject of update_customer: expected nothing written/);
  });
  it('fails a decision with nothing proposed to decide as the agent’s failure, not a harness error', () => {
    const none = decision({
      decision: 'reject',
      tool: 'update_customer',
      reply: 'please call us',
      nothingProposed: 'nothing to reject: no approval for update_customer was proposed in this turn',
    });
    const r = scoreRuns([c], [run('pa', [turn({ decisions: [approved, none] })])]);
    expect(r.cases[0]!.ok).toBe(false);
    expect(r.cases[0]!.failures.join('\n')).toMatch(/nothing to reject/);
    expect(none.error).toBeUndefined();
  });
  it('does not count an implicit approval (for an end-state check) as a decision', () => {
    const plain = one({ id: 'im', turns: [{ message: 'm', expect: {} }] });
    const r = scoreRuns([plain], [run('im', [turn({ decisions: [decision({ implicit: true })] })])]);
    expect(r.metrics.decision_truthfulness.n).toBe(0);
  });
  it('makes an end-state turn a writer for the independence check', () => {
    const a = one({
      id: 'a',
      customer: 'cus_009',
      turns: [{ message: 'm', expect: { rows: { customers: [{ id: 'x' }] } } }],
    });
    const b = one({ id: 'b', customer: 'cus_009', turns: [{ message: 'm', expect: {} }] });
    expect(checkIndependence([a, b])).toEqual(['b uses cus_009, whose record a changes by an approved write']);
  });
});

describe('--repeat: pass^k', () => {
  it('is C(c,k)/C(n,k) averaged over cases', () => {
    expect(passHatK([{ passes: 3, trials: 3 }], 3)).toBe(1);
    expect(passHatK([{ passes: 2, trials: 4 }], 2)).toBeCloseTo(1 / 6);
    expect(passHatK([{ passes: 2, trials: 4 }], 1)).toBeCloseTo(0.5);
    expect(passHatK([], 1)).toBeNull();
    expect(() => passHatK([{ passes: 1, trials: 1 }], 2)).toThrow(RangeError);
  });
  it('falls for a flaky case and names it', () => {
    const rep = (ok: boolean) =>
      ({
        cases: [
          { id: 'a', ok },
          { id: 'b', ok: true },
        ],
      }) as unknown as EvalReport;
    const s = summarizeRepeats([rep(true), rep(false), rep(true)]);
    expect(s.flaky).toEqual(['a']);
    expect(s.pass_hat.map((p) => p.value)).toEqual([expect.closeTo(5 / 6), expect.closeTo(2 / 3), 0.5]);
  });
});

describe('--baseline', () => {
  it('lists what got better and worse, per case and metric', () => {
    const before = scoreRuns(
      [
        one({ id: 'x', turns: [{ message: 'm', expect: { tools: [] } }] }),
        one({ id: 'y', turns: [{ message: 'm', expect: { tools: [] } }] }),
      ],
      [run('x', [turn()]), run('y', [turn({ calls: [observeCall('lookup_customer', { customer_id: 'cus_001' })] })])],
    );
    const after = scoreRuns(
      [
        one({ id: 'x', turns: [{ message: 'm', expect: { tools: [] } }] }),
        one({ id: 'y', turns: [{ message: 'm', expect: { tools: [] } }] }),
      ],
      [run('x', [turn({ calls: [observeCall('lookup_customer', { customer_id: 'cus_001' })] })]), run('y', [turn()])],
    );
    const d = diffSet('golden', after, before);
    expect([d.better, d.worse]).toEqual([['y'], ['x']]);
    expect(d.metrics.find((m) => m.name === 'tool_selection')!.delta).toBe(0);
  });
});

describe('--html', () => {
  it('is self-contained: an SVG chart per metric and the failing cases, escaped', () => {
    const c = one({ id: 'h', turns: [{ message: 'book <b>it</b>', expect: { tools: ['book_slot'] } }] });
    const scored = scoreRuns([c], [run('h', [turn({ reply: 'no' })])]);
    const report = {
      model: 'm',
      now: '',
      timeZone: '',
      startedAt: '',
      ms: 1,
      runs: [run('h', [turn({ reply: 'no' })])],
      ...scored,
    };
    const html = htmlReport({ holdout: { report, cases: [c] } });
    expect(html.match(/<svg /g)?.length).toBe(METRIC_NAMES.length);
    expect(html).toContain('book &lt;b&gt;it&lt;/b&gt;');
    expect(html).toContain('Failing cases (1)');
    expect(html).not.toMatch(/<script|src="http|href="http/);
  });
});

describe('progress', () => {
  it('draws a bar on a terminal and one line per case otherwise', () => {
    expect(progressBar('golden', 5, 10, 1, 10)).toBe('golden [#####.....]  5/10  1 failing');
    const lines: string[] = [];
    const p = progressReporter('holdout', { write: (s) => lines.push(s), isTTY: false });
    p({ id: 'a', ok: false } as never, 0, 2);
    expect(lines).toEqual(['  holdout [1/2] FAIL a\n']);
  });

  it('names no case of a frozen set, on a log or a terminal', () => {
    const lines: string[] = [];
    const log = progressReporter('holdout', { write: (s) => lines.push(s), isTTY: false }, 10, { ids: false });
    log({ id: 'secret-case', ok: false } as never, 0, 2);
    const tty = progressReporter('holdout', { write: (s) => lines.push(s), isTTY: true }, 10, { ids: false });
    tty({ id: 'secret-case', ok: false } as never, 1, 2);
    expect(lines[0]).toBe('  holdout [1/2] FAIL\n');
    expect(lines.join('')).not.toContain('secret-case');
  });
});

describe('failing cases of a frozen set', () => {
  it('are counted, not listed, unless asked for', () => {
    const report = {
      cases: [{ id: 'secret-case', kind: 'booking', customer: 'cus_001', ok: false, failures: ['tools'], turns: [] }],
      runs: [],
    } as never;
    const hidden = failuresText(report, { listed: false });
    expect(hidden).toMatch(/^1 failing cases, not listed/);
    expect(hidden).not.toContain('secret-case');
    expect(failuresText(report)).toContain('secret-case');
  });

  it('are the two holdout sets', () => {
    expect(FROZEN_SETS).toEqual(['holdout', 'holdout-2']);
    expect(isFrozen('holdout-2')).toBe(true);
    expect(isFrozen('golden')).toBe(false);
    expect(isFrozen(undefined)).toBe(false);
  });
});

describe('thresholds per set', () => {
  it('has a floor for every metric in both sets', () => {
    for (const set of ['holdout', 'golden'] as const)
      expect(Object.keys(loadThresholds(undefined, set)).sort(), set).toEqual([...METRIC_NAMES].sort());
  });
});
