import type { BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { followsOn } from '../analysis/follow-on.js';
import { planTurn, toAIMessage } from '../planner.js';
import { customer, makeContext, plan, SEED_SERVICES, system, toolResult } from '../testing.js';

// A visit asked for "straight after" another in the same message starts when that one ends (whole crew-hours).
// NOW is Monday Dec 7, 9:00 in New York.

const ctx = makeContext({ services: SEED_SERVICES });
const REPAIR = {
  id: 'BKG-3001',
  service_id: 'svc_faucet_repair',
  service_name: 'Faucet Repair',
  starts_at: '2026-12-09T12:00:00-05:00',
};
const lookupBody = {
  status: 'found',
  customer: { id: 'cus_001', name: 'Maria Gonzalez', email: 'm@example.com', phone: null, address: null },
  upcoming_bookings: [{ status: 'confirmed', crew: 'crew-a', ...REPAIR }],
  open_tickets: [],
  candidates: [],
};

/** The calls of the turn after the lookup (or of the first turn, when it looks nothing up). */
function callsFor(text: string) {
  const window: BaseMessage[] = [system(ctx), customer(text)];
  const first = planTurn(window);
  const lookup = first.calls.find((c) => c.name === 'lookup_customer');
  if (!lookup) return first.calls;
  const ai = toAIMessage(first, window, 'thread-test');
  const id = ai.tool_calls!.find((c) => c.name === 'lookup_customer')!.id!;
  const second = planTurn([...window, ai, toolResult(id, 'lookup_customer', lookupBody)]);
  return [...first.calls.filter((c) => c.name !== 'lookup_customer'), ...second.calls];
}

const startOf = (calls: { name: string; args: Record<string, unknown> }[], service: string) =>
  calls.find((c) => c.name === 'book_slot' && c.args.service_id === service)?.args.start_time;

describe('words that ask for a visit straight after another', () => {
  it.each([
    'and a handyman hour straight after',
    'add a handyman hour right after it',
    'then a handyman hour once that is done',
    "a handyman hour when they're finished",
    'book them back to back',
    "while they're there, a handyman hour",
    'a handyman hour immediately afterwards',
  ])('%s', (text) => expect(followsOn(text)).toBe(true));

  it.each(['a handyman hour right after lunch', 'straight after 3pm on friday', 'after the holidays'])(
    'not of a time of day: %s',
    (text) => expect(followsOn(text)).toBe(false),
  );
});

describe('a second new visit straight after the first', () => {
  it.each([
    ['book a faucet repair friday at 10 and a handyman hour straight after', '2026-12-11T12:00:00-05:00'],
    ['can i get a faucet repair on friday at 10, and a handyman hour right after it?', '2026-12-11T12:00:00-05:00'],
    ['book the tv mount tuesday at 1pm. then a handyman hour once that is done', '2026-12-08T15:00:00-05:00'],
  ])('%s', (text, start) => {
    expect(startOf(plan(ctx, text).calls, 'svc_handyman_hour')).toBe(start);
  });
});

describe('a new visit straight after a booking moved in the same message', () => {
  it.each([
    "can the faucet repair move from wed to friday the 11th at noon? and while they're there add a handyman hour " +
      'straight after to sort a sticky cupboard door',
    'move my faucet repair to friday at noon and book a handyman hour right after it',
    'please reschedule the repair to friday at 12pm. and a handyman hour once that is done',
  ])('%s', (text) => {
    const calls = callsFor(text);
    expect(calls.find((c) => c.name === 'reschedule_booking')?.args.new_start_time).toBe('2026-12-11T12:00:00-05:00');
    // A 90-minute repair holds two crew-hours: noon to 2 PM.
    expect(startOf(calls, 'svc_handyman_hour')).toBe('2026-12-11T14:00:00-05:00');
  });

  it('the time said for it as well, when it is when the moved visit ends: requested', () => {
    const calls = callsFor('move my faucet repair to friday at noon and book a handyman hour straight after at 2');
    expect(startOf(calls, 'svc_handyman_hour')).toBe('2026-12-11T14:00:00-05:00');
  });

  it('a time said for it that is not when the moved visit ends: asked about, not requested', () => {
    const calls = callsFor('move my faucet repair to friday at noon and book a handyman hour straight after at 1');
    expect(calls.some((c) => c.name === 'book_slot')).toBe(false);
  });

  it('a visit that would run past closing is asked about, not requested', () => {
    const calls = callsFor('move my faucet repair to saturday the 12th at noon and a handyman hour right after it');
    expect(calls.some((c) => c.name === 'book_slot')).toBe(false);
  });
});
