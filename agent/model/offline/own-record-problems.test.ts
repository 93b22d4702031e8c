import type { BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { extractAddress, extractAddressPatch } from './analysis/entities.js';
import { planTurn, toAIMessage } from './planner.js';
import { ARTICLES, callNames, customer, plan, seedContext, system, toolResult } from './testing.js';

/*
 * A problem described is a ticket; a question about their own record is a lookup and writes nothing;
 * an addition to the notes keeps what they say; a city is read past the chat around it.
 */

const ctx = seedContext();

describe('water escaping right now: an urgent ticket', () => {
  it.each([
    'water is coming out from under the kitchen sink RIGHT NOW, its pooling on the floor, what do i do',
    "there's a puddle spreading under the dishwasher right now, what should i do??",
    "water's seeping out from behind the toilet as we speak, help",
  ])('%s', (text) => {
    const turn = plan(ctx, text);
    expect(callNames(turn)).toEqual(['create_ticket']);
    expect(turn.calls[0]!.args.priority).toBe('urgent');
  });

  it('a question about fixing a drip is no ticket', () => {
    expect(callNames(plan(ctx, 'do you guys fix dripping taps? how much is it?'))).toEqual([]);
  });
});

describe("the customer's own slip is no complaint: the question is a lookup", () => {
  it.each([
    "when's my next one again? the fan thing. i forgot to put it in my calendar and my husband is asking",
    'what time is my faucet repair again? i forgot to write it down',
    'we totally forgot when my next cleaning is, can you check?',
  ])('%s', (text) => {
    expect(callNames(plan(ctx, text))).toEqual(['lookup_customer']);
  });

  it('work we forgot is still a complaint', () => {
    expect(callNames(plan(ctx, 'the cleaner forgot to do the upstairs bathroom yesterday'))).toEqual(['create_ticket']);
  });
});

describe('a question about the address on file writes nothing', () => {
  it.each([
    'which address is the faucet visit on wednesday going to? ' +
      'i moved flats last year and want to be sure u have the new one',
    'we changed flats in the spring, what address do you have on file for me?',
    'i moved flats a while back - which address are you using for me?',
  ])('%s', (text) => {
    expect(callNames(plan(ctx, text))).toEqual(['lookup_customer']);
  });

  it('"flats" is no unit, "flat 4" is', () => {
    expect(extractAddressPatch('i moved flats last year')).toBeUndefined();
    expect(extractAddressPatch('moved to flat 4, same building')?.unit).toBe('Flat 4');
    expect(extractAddressPatch('moved to flat4 in the same building')?.unit).toBe('Flat 4');
  });
});

/** The planner's turn after a lookup_customer it asked for comes back with `record`. */
function afterLookup(text: string, record: Record<string, unknown>, over = {}) {
  const window: BaseMessage[] = [system(seedContext(over)), customer(text)];
  const first = planTurn(window);
  expect(callNames(first)).toEqual(['lookup_customer']);
  const ai = toAIMessage(first, window, 'thread-test');
  const body = { status: 'found', customer: { id: 'cus_001', ...record }, upcoming_bookings: [], open_tickets: [] };
  return planTurn([...window, ai, toolResult(ai.tool_calls![0]!.id!, 'lookup_customer', body)]);
}

describe('their tickets asked beside a policy question: a lookup, and the help centre for the rest', () => {
  it.each([
    'do i have any open tickets or whatever from that complaint i made? also whats ur refund timeline usually, in case',
    'do i have any open tickets from the complaint i made last week? how long do refunds usually take',
    'any open tickets on my account? and whats the usual refund timeline',
  ])('%s', (text) => {
    const after = afterLookup(text, { name: 'Maria' }, { retrieved: [ARTICLES.refunds] });
    expect(after.calls).toEqual([]);
    expect(after.content).toMatch(/don't have any open tickets/);
    expect(after.content).toMatch(/5 to 10 business days/);
  });

  it('the policy question alone is no lookup', () => {
    const turn = plan(seedContext({ retrieved: [ARTICLES.refunds] }), 'whats ur refund timeline usually?');
    expect(callNames(turn)).toEqual([]);
    expect(turn.content).toMatch(/5 to 10 business days/);
  });
});

describe('an addition to the notes keeps the notes on file', () => {
  const onFile = { notes: 'Allergic to lavender.' };
  it.each([
    ['pls add to my notes that the side gate sticks, u have to push hard', /side gate sticks/],
    ['we use the side door now, knock loudly - can you add this to my notes', /side door now/],
    ['please add to the notes on my account that the dog is in the garden now', /dog is in the garden/],
    // "a note" added is one more note: the tool replaces the notes, so the ones on file are kept too.
    [
      "new baby in the house 😴 can you add a note for whoever comes: please don't ring the doorbell, just knock",
      /doorbell/,
    ],
    ['please put a note on file: our dog is friendly but will bark at the door', /bark at the door/],
  ])('%s', (text, added) => {
    const after = afterLookup(text, onFile);
    expect(callNames(after)).toEqual(['update_customer']);
    const notes = (after.calls[0]!.args.changes as { notes: string }).notes;
    expect(notes).toMatch(/^Allergic to lavender\. /);
    expect(notes).toMatch(added);
  });

  it('new notes said outright replace them, with no lookup', () => {
    const turn = plan(ctx, 'change my notes to say the side gate sticks');
    expect(callNames(turn)).toEqual(['update_customer']);
    expect((turn.calls[0]!.args.changes as { notes: string }).notes).toMatch(/^The side gate sticks$/i);
  });
});

describe('a city read past the chat around it', () => {
  it.each([
    ['we moved!! new place is 58 Heron Way, same street lol, willow bay MH 2210, no unit', 'Willow Bay'],
    ['new address: 12 Oak St, right by the park haha, fernbrook MH 2105', 'Fernbrook'],
    ['moved to 4 Gull Crescent, just round the corner, Maple Harbor MH 1024', 'Maple Harbor'],
  ])('%s', (text, city) => {
    const found = extractAddress(text);
    expect(found?.ok && found.address.city).toBe(city);
  });

  it('a city the area does not know stays as written', () => {
    const found = extractAddress('I moved to 12 Oak St, Apt 3, Springfield SP 1042');
    expect(found?.ok && found.address.city).toBe('Springfield');
  });
});
