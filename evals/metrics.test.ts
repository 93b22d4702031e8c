import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCaseFile, type EvalCase } from './case-schema.js';
import { checkGate } from './gate.js';
import { checkIndependence } from './independence.js';
import {
  argMismatches,
  argsMatch,
  asksQuestion,
  matchExpectedArgs,
  replyProblems,
  sameTools,
  scoreRuns,
  wilson,
} from './metrics.js';
import { observeCall } from './run.js';
import { caseRun, observedTurn } from './testing.js';

describe('wilson', () => {
  const close = (got: [number, number], want: [number, number]) => {
    expect(got[0]).toBeCloseTo(want[0], 4);
    expect(got[1]).toBeCloseTo(want[1], 4);
  };

  it('matches published values', () => {
    close(wilson(5, 10), [0.2366, 0.7634]);
    close(wilson(0, 10), [0, 0.2775]);
    close(wilson(10, 10), [0.7225, 1]);
    close(wilson(81, 263), [0.2553, 0.3662]);
    close(wilson(1, 1), [0.2065, 1]);
  });

  it('is exact at the ends and [0, 1] when nothing was measured', () => {
    expect(wilson(0, 50)[0]).toBe(0);
    expect(wilson(50, 50)[1]).toBe(1);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });

  it('contains the estimate, stays in [0, 1] and narrows as n grows', () => {
    for (const n of [1, 2, 5, 17, 100, 1000]) {
      for (let k = 0; k <= n; k += Math.max(1, Math.floor(n / 7))) {
        const [lo, hi] = wilson(k, n);
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(lo).toBeLessThanOrEqual(k / n + 1e-12);
        expect(hi).toBeGreaterThanOrEqual(k / n - 1e-12);
      }
    }
    const width = (k: number, n: number) => wilson(k, n)[1] - wilson(k, n)[0];
    expect(width(90, 100)).toBeLessThan(width(9, 10));
    expect(width(900, 1000)).toBeLessThan(width(90, 100));
  });

  it('is symmetric: k successes mirror n - k', () => {
    const [lo, hi] = wilson(3, 20);
    const [lo2, hi2] = wilson(17, 20);
    expect(lo).toBeCloseTo(1 - hi2, 12);
    expect(hi).toBeCloseTo(1 - lo2, 12);
  });

  it('refuses impossible counts', () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(0.5, 2)).toThrow(RangeError);
  });
});

describe('argument matching', () => {
  const booking = {
    customer_id: 'cus_001',
    service_id: 'svc_deep_clean',
    start_time: '2026-12-08T10:00:00-05:00',
    notes: 'We have a cat.',
  };

  it('matches objects partially and values exactly', () => {
    expect(argsMatch({ service_id: 'svc_deep_clean' }, booking)).toBe(true);
    expect(argMismatches({ service_id: 'svc_standard_clean' }, booking)).toEqual([
      'service_id: expected "svc_standard_clean", got "svc_deep_clean"',
    ]);
    expect(argMismatches({ customer_id: 'cus_001', priority: 'high' }, booking)).toEqual([
      'priority: expected "high", got missing',
    ]);
    expect(argsMatch({ count: 1 }, { count: '1' })).toBe(false);
  });

  it('compares date-times with an offset as instants, nothing else', () => {
    expect(argsMatch({ start_time: '2026-12-08T15:00:00Z' }, booking)).toBe(true);
    expect(
      argsMatch({ start_time: '2026-12-08T10:00:00-05:00' }, { start_time: '2026-12-08T10:00:00.000-05:00' }),
    ).toBe(true);
    expect(argsMatch({ start_time: '2026-12-08T11:00:00-05:00' }, booking)).toBe(false);
    expect(argsMatch({ start_time: '2026-12-08T10:00:00' }, { start_time: '2026-12-08T10:00:00-05:00' })).toBe(false);
  });

  it('recurses into nested objects and arrays', () => {
    const update = {
      changes: {
        address: { line1: '45 Harbor View Rd', unit: 'Apt 2', city: 'Maple Harbor', postal_code: 'MH 1024' },
        tags: ['a', 'b'],
      },
    };
    expect(argsMatch({ changes: { address: { line1: '45 Harbor View Rd', city: 'Maple Harbor' } } }, update)).toBe(
      true,
    );
    expect(argMismatches({ changes: { address: { unit: 'Apt 3' } } }, update)).toEqual([
      'changes.address.unit: expected "Apt 3", got "Apt 2"',
    ]);
    expect(argsMatch({ changes: { tags: ['a', 'b'] } }, update)).toBe(true);
    expect(argMismatches({ changes: { tags: ['a'] } }, update)).toEqual(['changes.tags: expected 1 items, got 2']);
    expect(argMismatches({ changes: { email: { x: 1 } } }, update)).toEqual([
      'changes.email: expected an object, got missing',
    ]);
  });

  it('supports $regex (case-insensitive) and $absent', () => {
    expect(argsMatch({ notes: { $regex: 'CAT' } }, booking)).toBe(true);
    expect(argsMatch({ notes: { $regex: '^dog' } }, booking)).toBe(false);
    expect(argsMatch({ notes: { $regex: 'cat' } }, { notes: 3 })).toBe(false);
    expect(argsMatch({ to: { $absent: true } }, booking)).toBe(true);
    expect(argMismatches({ notes: { $absent: true } }, booking)).toEqual([
      'notes: expected no value, got "We have a cat."',
    ]);
  });

  it('matches each expectation to a different call, finding the assignment that matches most', () => {
    const calls = [
      { start_time: '2026-12-08T10:00:00-05:00', service_id: 'a' },
      { start_time: '2026-12-09T10:00:00-05:00', service_id: 'a' },
    ];
    // Greedy would give call 0 to the first (loose) expectation and leave the second unmatched.
    expect(
      matchExpectedArgs([{ service_id: 'a' }, { start_time: '2026-12-08T10:00:00-05:00' }], calls).map((m) => m.ok),
    ).toEqual([true, true]);
    // Two expectations cannot share one call.
    expect(matchExpectedArgs([{ service_id: 'a' }, { service_id: 'a' }], calls.slice(0, 1)).map((m) => m.ok)).toEqual([
      true,
      false,
    ]);
    expect(matchExpectedArgs([{ service_id: 'b' }], calls)[0]).toEqual({
      ok: false,
      details: ['service_id: expected "b", got "a"'],
    });
    expect(matchExpectedArgs([{ service_id: 'b' }], [])[0]).toEqual({ ok: false, details: ['no such call'] });
  });

  it('compares tool names as a multiset', () => {
    expect(sameTools([], [])).toBe(true);
    expect(sameTools(['book_slot', 'send_email'], ['send_email', 'book_slot'])).toBe(true);
    expect(sameTools(['book_slot'], ['book_slot', 'book_slot'])).toBe(false);
    expect(sameTools(['book_slot', 'book_slot'], ['book_slot', 'send_email'])).toBe(false);
  });

  it('checks replies case-insensitively', () => {
    expect(replyProblems('You are BOOKED', { reply_includes: ['booked'], reply_excludes: ['declined'] })).toEqual([]);
    expect(replyProblems('declined', { reply_includes: ['booked'], reply_excludes: ['Declined'] })).toEqual([
      'reply lacks "booked"',
      'reply contains "Declined"',
    ]);
  });

  it('counts a clarifying question, not a stock closer', () => {
    expect(asksQuestion('Could you tell me which day you would like?')).toBe(true);
    expect(asksQuestion('Deep Cleaning is $289. Is there anything else I can help with?')).toBe(false);
    expect(asksQuestion('Deep Cleaning is $289. Would you like me to book a Deep Cleaning for you?')).toBe(false);
    expect(asksQuestion('Done.')).toBe(false);
  });

  it('validates calls with the registry, and withdraw_request with its own schema', () => {
    expect(
      observeCall('book_slot', {
        customer_id: 'cus_001',
        service_id: 'svc_deep_clean',
        start_time: '2026-12-08T10:00:00-05:00',
      }),
    ).toMatchObject({ valid: true, mutating: true });
    expect(
      observeCall('book_slot', { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: 'Tuesday 10am' }),
    ).toMatchObject({ valid: false, mutating: true });
    expect(observeCall('lookup_customer', { customer_id: 'cus_001' })).toMatchObject({ valid: true, mutating: false });
    expect(observeCall('withdraw_request', { reason: 'never mind' })).toMatchObject({ valid: true, mutating: false });
    expect(observeCall('withdraw_request', { reason: 42 })).toMatchObject({ valid: false });
    expect(observeCall('delete_everything', {})).toMatchObject({ valid: false, mutating: false });
  });
});

// ------------------------------------------------------------------------------ scoring

const turn = observedTurn;
const call = (name: string, args: Record<string, unknown>) => observeCall(name, args);
const run = caseRun;
const BOOK = { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-08T10:00:00-05:00' };

describe('scoreRuns', () => {
  const cases: EvalCase[] = [
    {
      id: 'book',
      kind: 'booking',
      customer: 'cus_001',
      turns: [
        {
          message: 'book',
          expect: {
            tools: ['book_slot'],
            args: { book_slot: { service_id: 'svc_deep_clean', start_time: '2026-12-08T10:00:00-05:00' } },
          },
        },
      ],
    },
    {
      id: 'kb',
      kind: 'knowledge',
      customer: 'cus_001',
      turns: [{ message: 'q', expect: { tools: [], retrieved_any: ['kb-pricing-02'], reply_includes: ['$289'] } }],
    },
    {
      id: 'amb',
      kind: 'ambiguity',
      customer: 'cus_001',
      turns: [{ message: 'a', expect: { tools: [], clarify: true } }],
    },
    {
      id: 'dec',
      kind: 'decision',
      customer: 'cus_002',
      turns: [
        {
          message: 'd',
          expect: { tools: ['update_customer'] },
          decide: { decision: 'reject', reason: 'no', expect: { reply_includes: ['no'], executed: false } },
        },
      ],
    },
    { id: 'clar', kind: 'ambiguity', customer: 'cus_003', turns: [{ message: 'c', expect: { clarify: true } }] },
  ];
  const good = [
    run('book', [turn({ calls: [call('book_slot', BOOK)] })]),
    run('kb', [turn({ retrieved: ['kb-pricing-01', 'kb-pricing-02'], reply: 'It is $289.' })]),
    run('amb', [turn({ reply: 'Which day would you like?' })]),
    run('dec', [
      turn({
        calls: [call('update_customer', { customer_id: 'cus_002', changes: { phone: '555 201 0000' } })],
        decision: {
          decision: 'reject',
          approvals: [{ id: 'a1', tool: 'update_customer', args: {}, status: 'rejected' }],
          reply: 'Declined: no.',
          calls: [],
        },
      }),
    ]),
    run('clar', [turn({ reply: 'Which one did you mean?' })]),
  ];

  it('passes cases whose every expectation held and counts each metric once per trial', () => {
    const { cases: results, metrics } = scoreRuns(cases, good);
    expect(results.map((r) => [r.id, r.ok, r.failures])).toEqual(cases.map((c) => [c.id, true, []]));
    expect(metrics.task_completion).toMatchObject({ k: 5, n: 5, value: 1 });
    expect(metrics.tool_selection).toMatchObject({ k: 4, n: 4 });
    expect(metrics.argument_validity).toMatchObject({ k: 2, n: 2 });
    expect(metrics.argument_accuracy).toMatchObject({ k: 1, n: 1 });
    expect(metrics.retrieval_recall_at_5).toMatchObject({ k: 1, n: 1 });
    // kb and amb expect no tools; clar asks to clarify (so no write either).
    expect(metrics.false_action_rate).toMatchObject({ k: 0, n: 3, value: 0, better: 'lower' });
    expect(metrics.clarification_rate).toMatchObject({ k: 2, n: 2 });
    expect(metrics.decision_truthfulness).toMatchObject({ k: 1, n: 1 });
    expect(metrics.task_completion.ci[1]).toBe(1);
  });

  it('says why a case failed', () => {
    const bad = [
      run('book', [turn({ calls: [call('book_slot', { ...BOOK, start_time: '2026-12-08T11:00:00-05:00' })] })]),
      run('kb', [
        turn({
          calls: [call('create_ticket', { customer_id: 'cus_001' })],
          retrieved: ['kb-pricing-01'],
          reply: 'I opened a ticket.',
        }),
      ]),
      run('amb', [
        turn({ reply: 'Booked. Is there anything else I can help with?', calls: [call('book_slot', BOOK)] }),
      ]),
      run('dec', [
        turn({
          calls: [call('update_customer', { customer_id: 'cus_002', changes: { phone: '555 201 0000' } })],
          decision: {
            decision: 'reject',
            approvals: [{ id: 'a1', tool: 'update_customer', args: {}, status: 'executed' }],
            reply: 'Done!',
            calls: [],
          },
        }),
      ]),
      run('clar', [turn({ error: 'boom' })]),
    ];
    const { cases: results, metrics } = scoreRuns(cases, bad);
    const why = Object.fromEntries(results.map((r) => [r.id, r.failures]));
    expect(why.book).toEqual([
      'args of book_slot: start_time: expected 2026-12-08T10:00:00-05:00, got 2026-12-08T11:00:00-05:00',
    ]);
    expect(why.kb).toEqual([
      'invalid arguments for create_ticket: subject: Invalid input: expected string, received undefined; ' +
        'description: Invalid input: expected string, received undefined; ' +
        'category: Invalid option: expected one of "billing"|"scheduling"|"complaint"|"damage"|"technical"|"general"',
      'tools: expected [], got [create_ticket]',
      'retrieval: none of [kb-pricing-02] in top 5 [kb-pricing-01]',
      'reply lacks "$289"',
    ]);
    expect(why.amb).toEqual([
      'tools: expected [], got [book_slot]',
      'expected a clarifying question, but it proposed book_slot',
    ]);
    expect(why.dec).toEqual([
      'after reject: expected nothing written, approvals are executed',
      'after reject: reply lacks "no"',
    ]);
    expect(why.clar).toEqual(['error: boom', 'expected a clarifying question, the reply asks none']);
    expect(metrics.task_completion).toMatchObject({ k: 0, n: 5 });
    expect(metrics.false_action_rate).toMatchObject({ k: 2, n: 3 });
    expect(metrics.argument_validity).toMatchObject({ k: 3, n: 4 });
    expect(metrics.decision_truthfulness).toMatchObject({ k: 0, n: 1 });
  });

  it('reports a case that never ran', () => {
    const { cases: results } = scoreRuns(cases.slice(0, 1), []);
    expect(results[0]).toMatchObject({ ok: false, failures: ['not run'] });
  });

  it('prefixes failures with the turn in multi-turn cases', () => {
    const c: EvalCase = {
      id: 'mt',
      kind: 'multi_turn',
      customer: 'cus_001',
      turns: [
        { message: 'a', expect: { tools: [] } },
        { message: 'b', expect: { tools: ['withdraw_request'] } },
      ],
    };
    const { cases: results } = scoreRuns([c], [run('mt', [turn(), turn()])]);
    expect(results[0]!.failures).toEqual(['turn 2: tools: expected [withdraw_request], got []']);
  });
});

describe('gate', () => {
  const { metrics } = scoreRuns([], []);
  it('holds floors and ceilings, and fails a metric that measured nothing', () => {
    const m = {
      ...metrics,
      task_completion: { ...metrics.task_completion, k: 9, n: 10, value: 0.9 },
      false_action_rate: { ...metrics.false_action_rate, k: 0, n: 10, value: 0 },
    };
    expect(checkGate(m, { task_completion: { min: 0.9 }, false_action_rate: { max: 0 } }).map((g) => g.ok)).toEqual([
      true,
      true,
    ]);
    expect(checkGate(m, { task_completion: { min: 0.91 } })[0]!.ok).toBe(false);
    const leaky = { ...m, false_action_rate: { ...m.false_action_rate, k: 1, value: 0.1 } };
    expect(checkGate(leaky, { false_action_rate: { max: 0 } })[0]!.ok).toBe(false);
    expect(checkGate(m, { clarification_rate: { min: 0.5 } })[0]).toMatchObject({ ok: false, value: null, n: 0 });
  });
});

describe('case files', () => {
  it('accept a valid case and reject typos with the case id and path', () => {
    const ok = [{ id: 'a', kind: 'knowledge', customer: null, turns: [{ message: 'hi', expect: { tools: [] } }] }];
    expect(parseCaseFile(JSON.stringify(ok))).toHaveLength(1);
    const typo = [
      { id: 'b', kind: 'knowledge', customer: 'cus_001', turns: [{ message: 'hi', expect: { tool: ['x'] } }] },
    ];
    expect(() => parseCaseFile(JSON.stringify(typo), 'f.json')).toThrow(CaseFileError);
    expect(() => parseCaseFile(JSON.stringify(typo), 'f.json')).toThrow(/\[b\] 0\.turns\.0\.expect/);
    const editOnReject = [
      {
        id: 'c',
        kind: 'decision',
        customer: 'cus_001',
        turns: [{ message: 'x', expect: {}, decide: { decision: 'reject', args: {}, expect: {} } }],
      },
    ];
    expect(() => parseCaseFile(JSON.stringify(editOnReject))).toThrow(/only an approval can edit/);
    expect(() => parseCaseFile('{')).toThrow(/not valid JSON/);
  });

  it('flag cases that would change what another case sees', () => {
    const c = (id: string, customer: string, start: string, approve: boolean): EvalCase => ({
      id,
      kind: 'decision',
      customer,
      turns: [
        {
          message: 'm',
          expect: { args: { book_slot: { service_id: 'svc_deep_clean', start_time: start } } },
          ...(approve ? { decide: { decision: 'approve' as const, expect: {} } } : {}),
        },
      ],
    });
    expect(
      checkIndependence([
        c('a', 'cus_001', '2026-12-08T10:00:00-05:00', true),
        c('b', 'cus_002', '2026-12-09T10:00:00-05:00', false),
      ]),
    ).toEqual([]);
    // A deep clean is four hours: 13:00 overlaps a booking approved for 10:00.
    expect(
      checkIndependence([
        c('a', 'cus_001', '2026-12-08T10:00:00-05:00', true),
        c('b', 'cus_002', '2026-12-08T13:00:00-05:00', false),
      ]),
    ).toEqual(['b expects to book 2026-12-08T18:00:00.000Z, an hour a books for real']);
    expect(
      checkIndependence([
        c('a', 'cus_001', '2026-12-08T10:00:00-05:00', true),
        c('b', 'cus_001', '2026-12-09T10:00:00-05:00', false),
      ]),
    ).toEqual(['b uses cus_001, whose record a changes by an approved write']);
  });

  it('let a rejected booking beside an approved write keep its hours free', () => {
    const writer = (bookingDecision: 'approve' | 'reject'): EvalCase => ({
      id: 'a',
      kind: 'decision',
      customer: 'cus_001',
      turns: [
        {
          message: 'm',
          expect: {
            args: {
              update_customer: { changes: { phone: '555-0100' } },
              book_slot: { service_id: 'svc_handyman_hour', start_time: '2026-12-09T09:00:00-05:00' },
            },
          },
          decide: [
            { tool: 'update_customer', decision: 'approve' as const, expect: {} },
            { tool: 'book_slot', decision: bookingDecision, expect: {} },
          ],
        },
      ],
    });
    const other: EvalCase = {
      id: 'b',
      kind: 'booking',
      customer: 'cus_002',
      turns: [
        {
          message: 'm',
          expect: { args: { book_slot: { service_id: 'svc_handyman_hour', start_time: '2026-12-09T09:00:00-05:00' } } },
        },
      ],
    };
    expect(checkIndependence([writer('reject'), other])).toEqual([]);
    expect(checkIndependence([writer('approve'), other])).toEqual([
      'b expects to book 2026-12-09T14:00:00.000Z, an hour a books for real',
    ]);
  });
});
