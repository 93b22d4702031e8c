import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCaseFile, type EvalCase, type TurnExpect } from './case-schema.js';
import { groundingProblems, replyProblems, scoreRuns } from './metrics.js';
import { canonicalTimesAndAmounts, containsPhrase } from './reply-match.js';
import { observeCall, type ObservedTurn } from './run.js';
import { caseRun, observedTurn } from './testing.js';

const turn = observedTurn;
const run = (id: string, t: ObservedTurn) => caseRun(id, [t]);
const caseWith = (id: string, e: TurnExpect): EvalCase => ({
  id,
  kind: 'booking',
  customer: 'cus_001',
  turns: [{ message: 'm', expect: e }],
});
/** Parse one case whose only turn expects `e`; throws CaseFileError when the schema refuses it. */
const parseExpect = (e: unknown) =>
  parseCaseFile(JSON.stringify([{ id: 'x', kind: 'knowledge', customer: null, turns: [{ message: 'm', expect: e }] }]));
const issuesOf = (e: unknown): string[] => {
  try {
    parseExpect(e);
    return [];
  } catch (err) {
    if (err instanceof CaseFileError) return err.issues;
    throw err;
  }
};

describe('canonical times and amounts', () => {
  it('writes every spelling of a clock time one way', () => {
    const forms = ['2:00 p.m.', '2:00 PM', '2pm', '2 pm', '2 P.M.', '02:00pm'].map(canonicalTimesAndAmounts);
    expect(new Set(forms)).toEqual(new Set(['2:00 pm']));
    expect(canonicalTimesAndAmounts('opens at 8 a.m. sharp')).toBe('opens at 8:00 am sharp');
    expect(canonicalTimesAndAmounts('at 9:30am.')).toBe('at 9:30 am.');
  });
  it('drops the dollar sign and nothing else', () => {
    expect(canonicalTimesAndAmounts('$79.50')).toBe('79.50');
    expect(canonicalTimesAndAmounts('a $ 35 fee')).toBe('a 35 fee');
    expect(canonicalTimesAndAmounts('I am 3 amps in, 10 minutes, room 12, $ sign')).toBe(
      'I am 3 amps in, 10 minutes, room 12, $ sign',
    );
  });
  it('does not let a time or amount match inside a longer number', () => {
    expect(containsPhrase('Arrival at 12 PM', '2:00 pm')).toBe(false);
    expect(containsPhrase('It costs $179.50', '$79.50')).toBe(false);
    expect(containsPhrase('It costs $79.55', '$79.5')).toBe(true); // literally a substring, as before
    expect(containsPhrase('Arrival at 2 p.m. on Friday', '2:00 PM on friday')).toBe(true);
    expect(containsPhrase('That is 79.50 in total', '$79.50')).toBe(true);
  });
});

describe('reply_includes alternatives', () => {
  it('passes on any one alternative, or a regex, and fails a reply lacking every alternative', () => {
    const checks = { reply_includes: [{ any: ['one year', '1-year', '12 months'] }, { $regex: 'warrant(y|ies)' }] };
    expect(replyProblems('Parts carry a 1-year warranty.', checks)).toEqual([]);
    expect(replyProblems('Parts carry a lifetime guarantee.', checks)).toEqual([
      'reply lacks any of "one year" | "1-year" | "12 months"',
      'reply lacks /warrant(y|ies)/i',
    ]);
  });
  it('compares clock times and amounts in one form, in excludes too', () => {
    expect(replyProblems('We open at 2pm; the fee is 79.50.', { reply_includes: ['2:00 PM', '$79.50'] })).toEqual([]);
    expect(replyProblems('Moved to 1 p.m.', { reply_excludes: ['1:00 PM'] })).toEqual(['reply contains "1:00 PM"']);
  });
  it('refuses an empty alternative list, an unknown key and a regex that does not compile', () => {
    expect(issuesOf({ reply_includes: [{ any: ['a'] }, { $regex: '^ok' }] })).toEqual([]);
    expect(issuesOf({ reply_includes: [{ any: [] }] })).not.toEqual([]);
    expect(issuesOf({ reply_includes: [{ all: ['a'] }] })).not.toEqual([]);
    expect(issuesOf({ reply_includes: [{ $regex: '(' }] }).join('\n')).toMatch(/not a valid regular expression/);
  });
});

describe('reply_from_article: fact alternatives and facts', () => {
  const articles = [
    {
      id: 'kb-a',
      body: 'Our office answers from 8:00 AM to 6:00 PM. Parts carry a one-year warranty; labour 90 days.',
    },
    { id: 'kb-b', body: 'Deposits of 25% are taken at booking for visits totalling 300 dollars or more always.' },
  ];
  it('accepts any alternative of a fact, times compared in one form', () => {
    const want = { article: 'kb-a', fact: ['one-year warranty', '8:00 AM'] };
    expect(groundingProblems('We open at 8am.', want, articles)).toEqual([]);
    expect(groundingProblems('Soon!', want, articles)).toEqual([
      'grounding: reply lacks any of "one-year warranty" | "8:00 AM" (kb-a)',
    ]);
  });
  it('reports an alternative that is not in the article as a case error, even when another one matched', () => {
    const want = { article: 'kb-a', fact: ['one-year warranty', '1-year warranty'] };
    expect(groundingProblems('A one-year warranty.', want, articles)).toEqual([
      'grounding: "1-year warranty" is not a passage of kb-a (a case error)',
    ]);
  });
  it('needs every one of facts', () => {
    const want = { article: 'kb-a', facts: [['one-year warranty', 'one-year'], '90 days'] };
    expect(groundingProblems('A one-year warranty, and 90 days on labour.', want, articles)).toEqual([]);
    expect(groundingProblems('A one-year warranty.', want, articles)).toEqual([
      'grounding: reply lacks "90 days" (kb-a)',
    ]);
  });
  it('takes exactly one of fact and facts', () => {
    expect(issuesOf({ reply_from_article: { article: 'kb-a', fact: ['x1', 'x2'] } })).toEqual([]);
    expect(issuesOf({ reply_from_article: { article: 'kb-a', facts: ['x1', ['x2', 'x3']] } })).toEqual([]);
    const both = issuesOf({ reply_from_article: { article: 'kb-a', fact: 'x1', facts: ['x2'] } });
    expect(both.join('\n')).toMatch(/exactly one of fact and facts/);
    expect(issuesOf({ reply_from_article: { article: 'kb-a' } }).join('\n')).toMatch(/exactly one of fact and facts/);
    expect(issuesOf({ reply_from_article: { article: 'kb-a', fact: [] } })).not.toEqual([]);
  });
});

describe('expect.one_of', () => {
  const BOOK_ARGS = {
    customer_id: 'cus_001',
    service_id: 'svc_handyman_hour',
    start_time: '2026-12-11T10:00:00-05:00',
  };
  const e: TurnExpect = {
    one_of: [{ clarify: true }, { tools: ['book_slot'], args: { book_slot: { service_id: 'svc_handyman_hour' } } }],
  };
  const c = caseWith('o', e);
  const score = (t: ObservedTurn) => scoreRuns([c], [run('o', t)]);

  it('passes on the first alternative and counts its metrics only', () => {
    const r = score(turn({ reply: 'Which day suits you?' }));
    expect(r.cases[0]!.ok).toBe(true);
    expect(r.metrics.clarification_rate).toMatchObject({ k: 1, n: 1 });
    expect([r.metrics.tool_selection.n, r.metrics.argument_accuracy.n]).toEqual([0, 0]);
  });
  it('passes on the second, scored against it (tools, args, and no clarification or false action)', () => {
    const r = score(turn({ reply: 'Booked.', calls: [observeCall('book_slot', BOOK_ARGS)] }));
    expect(r.cases[0]!.ok).toBe(true);
    expect(r.metrics.tool_selection).toMatchObject({ k: 1, n: 1 });
    expect(r.metrics.argument_accuracy).toMatchObject({ k: 1, n: 1 });
    expect([r.metrics.clarification_rate.n, r.metrics.false_action_rate.n]).toEqual([0, 0]);
  });
  it('fails a turn meeting neither with the first alternative’s problems and metrics', () => {
    const calls = [{ name: 'create_ticket', args: {}, mutating: true, valid: true }];
    const r = score(turn({ reply: 'Ticket opened.', calls }));
    expect(r.cases[0]!.ok).toBe(false);
    expect(r.cases[0]!.failures).toEqual([
      'one_of: none of 2 alternatives met; the first: expected a clarifying question, but it proposed create_ticket',
      'one_of: none of 2 alternatives met; the first: false action: proposed create_ticket',
    ]);
    expect(r.metrics.clarification_rate).toMatchObject({ k: 0, n: 1 });
    expect(r.metrics.false_action_rate).toMatchObject({ k: 1, n: 1 });
    expect(r.metrics.tool_selection.n).toBe(0);
  });
  it('is a schema error nested, beside other checks, with an end state, or with one alternative', () => {
    expect(issuesOf({ one_of: [{ clarify: true }, { tools: [] }] })).toEqual([]);
    const nested = issuesOf({ one_of: [{ clarify: true }, { one_of: [{ tools: [] }, { tools: ['book_slot'] }] }] });
    expect(nested.join('\n')).toMatch(/cannot hold another one_of/);
    expect(issuesOf({ tools: [], one_of: [{ clarify: true }, { tools: [] }] }).join('\n')).toMatch(/stands alone/);
    const rows = issuesOf({ one_of: [{ clarify: true }, { rows: { bookings: [{ id: 'B' }] } }] });
    expect(rows.join('\n')).toMatch(/cannot check the end state/);
    expect(issuesOf({ one_of: [{ clarify: true }] })).not.toEqual([]);
  });
});
