import { describe, expect, it } from 'vitest';
import { detectCues } from './analysis/cues.js';
import { makeContext, plan } from './testing.js';

// Issue 11's third round of failure classes (evals/golden/generalise-3.json), one mechanism each.

const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);

describe('a question whose subject is their own visits or record is a lookup, however it is phrased', () => {
  it.each([
    ['wait when is the cleaner coming again', 'bookings'],
    ['what time is the plumber guy showing up wednesday', 'bookings'],
    ['hey who are you sending on tuesday and what time??', 'bookings'],
    ['do i have anything next week', 'bookings'],
    ['how many visits have i got coming up with you guys', 'bookings'],
    ['which day was my handyman thing again?', 'bookings'],
    ['whens my faucet repair', 'bookings'],
    ['the tv install - thats still thursday right?', 'bookings'],
    ['are the fan people coming friday morning or in the afternoon', 'bookings'],
    ['is anyone coming out to me this week or is it next week', 'bookings'],
    ["cant remember what i've got booked in with you", 'bookings'],
    ['which email are my receipts going to?', 'contact'],
    ['is my old phone number still on file or did it get updated', 'contact'],
    ['what address do u have for me', 'contact'],
    ['whats the number you guys would call me on', 'contact'],
    ['do you even have an email for me?', 'contact'],
    ['can you confirm which address youll be coming to', 'contact'],
  ])('%s → %s', (text, kind) => {
    expect(detectCues(text).lookup).toBe(kind);
    expect(names(plan(makeContext(), text))).toEqual(['lookup_customer']);
  });
  it.each([
    ['what time are the window people turning up tmrw', 'bookings'],
    ['who is coming to do my thermostat install', 'bookings'],
    ['is my deep clean still happening saturday?', 'bookings'],
    ['what phone number have you got for me these days', 'contact'],
    ['is my old address still on file?', 'contact'],
  ])('other phrasings of the same questions: %s → %s', (text, kind) => {
    expect(detectCues(text).lookup).toBe(kind);
  });
  it.each([
    "what's your phone number?",
    'what happens if the cleaner is late?',
    'can someone come fix my faucet thursday at 2pm?',
    'how do reminders work, do you text before a visit?',
    "can i book for my mom's house?",
    'how do i know who is coming to my home?',
    'what time window will the tech arrive in',
    'my appointment says 10, what time should I really expect them at the door?',
    'when do the cleaners usually arrive?',
    'how do I get a copy of an old receipt for my taxes?',
    "my phone's been off all week so sorry for the slow reply. do you clean ovens in the deep clean?",
    'my husband has the flu but the faucet is leaking everywhere, can somebody still come out?',
  ])('a general question stays with the help centre: %s', (text) => {
    expect(detectCues(text).lookup).toBeUndefined();
    expect(names(plan(makeContext(), text))).not.toContain('lookup_customer');
  });
});

describe('several writes in one message: each request is planned from its own segment', () => {
  it('cancels one booking and still books the other', () => {
    const t = plan(makeContext(), 'cancel my tv mounting on thursday, then book a faucet repair friday at 11am');
    expect(names(t)).toEqual(['lookup_customer', 'book_slot']);
    expect(t.calls[1]!.args).toMatchObject({ service_id: 'svc_faucet_repair' });
    expect(new Date(t.calls[1]!.args.start_time as string).toISOString()).toBe('2026-12-11T16:00:00.000Z');
  });
  it('a second booking "the same day" takes the day of the first', () => {
    const t = plan(makeContext(), 'deep clean on tuesday at 9am and then a tv mount the same day at 2pm');
    expect(names(t)).toEqual(['book_slot', 'book_slot']);
    expect(t.calls.map((c) => new Date(c.args.start_time as string).toISOString())).toEqual([
      '2026-12-08T14:00:00.000Z',
      '2026-12-08T19:00:00.000Z',
    ]);
  });
  it('a contact change and a reported fault: both proposed', () => {
    const t = plan(
      makeContext(),
      'my number is now 555-303-9090. also the thermostat you put in keeps making a buzzing noise',
    );
    expect(names(t).sort()).toEqual(['create_ticket', 'update_customer']);
  });
  it('an address change does not hold back an email to the address on file', () => {
    const t = plan(
      makeContext(),
      'book a handyman hour thursday at 3pm, email me the details and ' +
        'update my address to 4 Elm Rd, Maple Harbor MH 1012',
    );
    expect(names(t).sort()).toEqual(['book_slot', 'send_email', 'update_customer']);
  });
  it('a cancellation alone books nothing, and a single booking is not split', () => {
    expect(names(plan(makeContext(), 'please cancel my deep clean on friday'))).toEqual(['lookup_customer']);
    const one = plan(makeContext(), 'book a deep clean friday at 10am. thanks, and then i can relax');
    expect(names(one)).toEqual(['book_slot']);
  });
  it('"what happens if" about a visit is a policy question, not a lookup', () => {
    expect(detectCues('what happens if my card gets declined after the visit?').lookup).toBeUndefined();
  });
});
