import { describe, expect, it } from 'vitest';
import { aiCalls, callNames, pendingBooking, plan, planMessage, seedContext, toolResult } from './testing.js';

/*
 * Two booking requests made one after the other, then a change: "it" right after the second is that one,
 * but "my booking" names a visit of theirs without saying which of the two, so it is asked about.
 */

const handyman = { customer_id: 'cus_001', service_id: 'svc_handyman_hour', start_time: '2026-12-10T10:00:00-05:00' };
const windows = { customer_id: 'cus_001', service_id: 'svc_window_clean', start_time: '2026-12-11T09:00:00-05:00' };
const ctx = seedContext({
  pending: [
    pendingBooking({ approval_id: 'apr_1', tool_call_id: 'call_1', args: handyman }),
    pendingBooking({ approval_id: 'apr_2', tool_call_id: 'call_2', args: windows }),
  ],
});
const before = [
  'book a handyman hour thursday the 10th at 10am pls, couple of shelves',
  aiCalls([{ id: 'call_1', name: 'book_slot', args: handyman }]),
  toolResult('call_1', 'book_slot', { status: 'pending_approval', approval_id: 'apr_1' }),
  'and windows friday the 11th at 9 while im at it',
  aiCalls([{ id: 'call_2', name: 'book_slot', args: windows }]),
  toolResult('call_2', 'book_slot', { status: 'pending_approval', approval_id: 'apr_2' }),
];
const moved = (t: { calls: { name: string; args: Record<string, unknown> }[] }) =>
  t.calls.filter((c) => c.name === 'book_slot').map((c) => [c.args.service_id, c.args.start_time]);

describe('"my booking" while two requests of this conversation wait: which one is asked', () => {
  it.each([
    'hmm actually can u push my booking back a day',
    'could you make my appointment a day later?',
    'actually can we shift our visit back two days',
  ])('%s', (text) => {
    const t = plan(ctx, ...before, text);
    expect(callNames(t)).not.toContain('book_slot');
    expect(t.content).toMatch(/Handyman Hour[\s\S]*Window Cleaning[\s\S]*Which one/);
    expect(t.meta?.offer?.kind).toBe('which_request');
  });

  it('the answer moves the one picked, by the days asked for', () => {
    const text = 'hmm actually can u push my booking back a day';
    const question = planMessage(ctx, ...before, text);
    const t = plan(ctx, ...before, text, question, 'the windows');
    expect(moved(t)).toEqual([['svc_window_clean', '2026-12-12T09:00:00-05:00']]);
  });
});

describe('a change that says which request stays without a question', () => {
  it('"it" right after the second request is that one, a day on at the same time', () => {
    expect(moved(plan(ctx, ...before, 'can you push it back a day'))).toEqual([
      ['svc_window_clean', '2026-12-12T09:00:00-05:00'],
    ]);
  });
  it('a service named picks its request', () => {
    expect(moved(plan(ctx, ...before, 'push my window cleaning booking back a day'))).toEqual([
      ['svc_window_clean', '2026-12-12T09:00:00-05:00'],
    ]);
  });
  it('a question about "my booking" asks for no change', () => {
    expect(callNames(plan(ctx, ...before, 'is my booking confirmed yet?'))).not.toContain('book_slot');
  });
});
