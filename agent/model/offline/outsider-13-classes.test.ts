import { describe, expect, it } from 'vitest';
import { changeCues, splitChange } from './analysis/booking-change.js';
import { extractAddress } from './analysis/entities.js';
import { callNames, NOW, plan, seedContext, TZ, seedArticles } from './testing.js';

// Failures of blind sets, as classes: a hypothetical change said with "pushed" or "hypothetically", venting that
// says it asks for nothing, a problem told only to frame a question, a change of a field whose new value is not
// given (or is no option), a visit wanted "sometime next week", a booking named by its day and hour that "goes to"
// another time, and a booking named with its day before its new time in one clause.

const ctx = { now: NOW, timeZone: TZ };
const retrieved = seedArticles;
const seeded = seedContext({
  retrieved: retrieved(
    'kb-accounts-and-communication-04',
    'kb-accounts-and-communication-06',
    'kb-accounts-and-communication-01',
    'kb-booking-03',
    'kb-hours-and-availability-03',
  ),
});
const writes = (text: string) =>
  callNames(plan(seeded, text)).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

describe('a booking named with its day, then the new time in the same clause', () => {
  it.each([
    ['can the faucet thing on wed be thursday at 4pm instead', 'the faucet thing on wed', 'thursday at 4pm'],
    [
      'could my window cleaning on the 14th be tuesday the 15th at 9 instead?',
      'my window cleaning on the 14th',
      '15th',
    ],
  ])('%s', (text, which, target) => {
    const split = splitChange(text, ctx);
    expect(split.which).toContain(which);
    expect(split.target).toContain(target);
    expect(split.target).not.toContain(which);
  });
});

describe('a booking named by its day and hour "goes to" another time', () => {
  it.each([
    'something came up, can tomorrows 8am clean go to thursday at 9 instead',
    "could friday's 2pm window clean go to monday at 10",
  ])('moves: %s', (text) => {
    expect(changeCues(text)).toMatchObject({ move: true, cancel: false });
  });
});

describe('a change asked about in theory changes nothing', () => {
  it.each([
    'hypothetically if i pushed the tv thing back a week would that cost me anything',
    'in theory if we bumped the clean to next month is there a charge',
    'if i shifted my faucet repair to friday would that be free',
  ])('%s', (text) => {
    expect(changeCues(text)).toMatchObject({ move: false, cancel: false });
  });
});

describe('told, not asked', () => {
  it.each([
    'honestly the roads out to pinecrest are a joke, no wonder ur guy was 10 min late last time. ' +
      'whatever its fine just moaning',
    'the cleaner was 20 mins late today, not a big deal, just saying',
  ])('venting that asks for nothing proposes nothing: %s', (text) => {
    expect(writes(text)).toEqual([]);
  });

  it('a problem told to frame a question about getting someone out is a question, not a ticket', () => {
    const text =
      'the tap in the downstairs loo started dripping overnight. not an emergency just driving me mad. ' +
      'whats the cut off to get someone out today';
    expect(writes(text)).toEqual([]);
  });
});

describe('asking first', () => {
  it.each([
    ['swap my email over to my work one pls, easier for receipts', /email/i],
    ['change how u contact me to whatsapp pls', /email|text|phone/i],
    ['fancy a deep clean sometime next week, whatever suits u guys', /day|time|when/i],
  ])('%s asks, proposes nothing', (text, about) => {
    const t = plan(seeded, text);
    expect(writes(text)).toEqual([]);
    expect(t.content).toMatch(/\?/);
    expect(t.content).toMatch(about);
    expect(t.content).not.toMatch(/help article/i);
  });
});

describe('an address typed in lower case, postcode and all', () => {
  it('61 tern street apt 2, fernbrook mh 2105', () => {
    const text = 'finally got my place sorted, address is 61 tern street apt 2, fernbrook mh 2105. pls add it';
    expect(extractAddress(text)).toEqual({
      ok: true,
      address: { line1: '61 tern street', unit: 'Apt 2', city: 'Fernbrook', postal_code: 'MH 2105' },
    });
  });
});

describe('a change asked about in theory gets the fee, not a proposal', () => {
  it('hypothetically if i pushed the tv thing back a week would that cost me anything', () => {
    const t = plan(seeded, 'hypothetically if i pushed the tv thing back a week would that cost me anything');
    expect(callNames(t).filter((n) => n !== 'search_knowledge_base')).toEqual([]);
    expect(t.content).toMatch(/free/i);
  });
});

describe('a fault named as what we mended is praise, not a report', () => {
  it.each([
    'the handyman last wednesday was honestly great, did the shelf in like 20 mins and tightened our wobbly chair ' +
      'without being asked. i meant to give him something but had no cash on me. is it too late now',
    'ur plumber fixed the leaky tap in no time, thank u so much',
  ])('%s', (text) => {
    expect(writes(text)).toEqual([]);
  });

  it.each([
    'your guy tightened our wobbly chair last week and its loose again already',
    'the faucet you fixed is dripping again, can someone come back tuesday at 10am?',
  ])('the mended thing failing again is still a problem: %s', (text) => {
    expect(writes(text)).toContain('create_ticket');
  });
});

describe('what the one coming can do is a question, not a booking', () => {
  it.each([
    'my mum is staying with us for a bit and she only really speaks spanish. would the handyman on the 15th be ' +
      'able to talk to her in spanish',
    'could the cleaner on friday be able to bring her own vacuum',
  ])('%s', (text) => {
    const t = plan(seeded, text);
    expect(writes(text)).toEqual([]);
    // Asked whether the one coming can do something, not when to come.
    expect(t.content).not.toMatch(/happy to book|what time/i);
  });

  it('"could the handyman be able to come thursday at 10" still asks for a visit', () => {
    expect(writes('could the handyman be able to come thursday the 10th at 10')).toEqual(['book_slot']);
  });
});
