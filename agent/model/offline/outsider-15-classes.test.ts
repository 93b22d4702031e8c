import { describe, expect, it } from 'vitest';
import { changeCues } from './analysis/booking-change.js';
import { crewInstruction, extractNameChange, extractPreferences } from './analysis/entities.js';
import { afterLookup, callNames, plan, seedContext, type Upcoming } from './testing.js';

// Failures of a blind set (evals/open/outsider-15-SCENARIOS.md), as classes: a request taken back "on second
// thoughts", a booking's day that "doesn't work for me" (a move, not a fault), a visit not needed because the
// customer did the job, a part of the day that is "a no go", a name after "got married!! im …", a note for the crew
// without "to" or "that", relative days said the British way ("a week on thursday", "monday week"), and new times
// said relative to the booking's own ("an hour later", "the day after", "the saturday before", "forward 2 hours",
// "the monday after", "11 instead of 9").

const writes = (t: { calls: { name: string }[] }) =>
  callNames(t).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

const converse = (text: string, bookings: Upcoming[], now?: string) =>
  afterLookup(seedContext(now ? { now } : {}), text, bookings);

const booking = (id: string, service_id: string, service_name: string, starts_at: string): Upcoming => ({
  id,
  service_id,
  service_name,
  starts_at,
});

describe('taken back in the same message', () => {
  it('change my email to … - hmm no on second thoughts keep the personal one', () => {
    const t = plan(
      seedContext(),
      'change my email to olivia.b@work.example.com - hmm no on second thoughts keep the personal one, work filters ' +
        'everything',
    );
    expect(writes(t)).toEqual([]);
  });
});

describe("a booking's day that doesn't work any more is a move to ask about, not a fault", () => {
  it('the wall repair on the 16th doesnt work for me anymore, can we find another day', () => {
    const drywall = booking('BKG-1013', 'svc_drywall_patch', 'Drywall Patch Repair', '2026-12-16T10:00:00-05:00');
    const t = converse('the wall repair on the 16th doesnt work for me anymore, can we find another day', [drywall]);
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/which day|what day|when/i);
  });
});

describe('a visit not needed any more', () => {
  it.each([
    'my bf went and put the tv up himself this arvo 🙄 so we dont need ur guy thursday after all',
    'patched the wall myself over the wkend so the drywall guy doesnt need to come thursday',
  ])('cancels: %s', (text) => {
    expect(changeCues(text)).toMatchObject({ cancel: true, move: false });
  });
});

describe('record changes', () => {
  it('"mornings are a no go now, afternoons pls"', () => {
    expect(
      extractPreferences('started a new job so mornings are a no go now, afternoons pls. texting is still fine'),
    ).toMatchObject({ preferred_time: 'afternoons' });
  });

  it('"got married last month!! 💍 im chloe dubois now"', () => {
    expect(
      extractNameChange(
        'got married last month!! 💍 im chloe dubois now. new email goes with it, chloe.dubois@example.org',
      ),
    ).toBe('Chloe Dubois');
  });

  it('"tell the crew the crates in the garage now"', () => {
    expect(
      crewInstruction('we got another dog so its 2 big dogs now 🐕🐕. and tell the crew the crates in the garage now'),
    ).toMatch(/garage/i);
  });
});

describe('relative days said the British way', () => {
  const start = (text: string, now?: string) =>
    plan(seedContext(now ? { now } : {}), text).calls.find((c) => c.name === 'book_slot')?.args.start_time;

  it.each([
    [
      'windows r filthy after the storm, can yous do them a week on thursday at 1pm',
      '2026-12-17T13:00:00-05:00',
      undefined,
    ],
    [
      'few nail pops and a dent in the hallway plasterboard, can someone patch them monday week at 10am pls',
      '2026-12-21T10:00:00-05:00',
      '2026-12-10T15:00:00.000Z',
    ],
    [
      'hiya the in-laws land saturday and the house is a tip 😬 could i get the big deep clean thing this friday, ' +
        '9 in the morning ideally',
      '2026-12-11T09:00:00-05:00',
      undefined,
    ],
  ])('%s', (text, iso, now) => {
    expect(start(text, now)).toBe(iso);
  });
});

describe("a new time said relative to the booking's own", () => {
  it.each([
    [
      'is there any way the window ppl could come an hour later tmrw? got a dentist thing that runs till 2:30',
      booking('BKG-1002', 'svc_window_clean', 'Interior Window Cleaning', '2026-12-08T14:00:00-05:00'),
      '2026-12-08T15:00:00-05:00',
      undefined,
    ],
    [
      'wed doesnt work for the handyman anymore, same time the day after ok?',
      booking('BKG-1003', 'svc_handyman_hour', 'Handyman Hour', '2026-12-09T11:00:00-05:00'),
      '2026-12-10T11:00:00-05:00',
      undefined,
    ],
    [
      'could the fan install on sat be 11 instead of 9, same day',
      booking('BKG-1008', 'svc_ceiling_fan_install', 'Ceiling Fan Installation', '2026-12-12T09:00:00-05:00'),
      '2026-12-12T11:00:00-05:00',
      '2026-12-08T15:00:00.000Z',
    ],
    [
      "monday's no good for the cleaning now, could u do the saturday before instead at 9",
      booking('BKG-1009', 'svc_standard_clean', 'Standard Home Cleaning', '2026-12-14T08:00:00-05:00'),
      '2026-12-12T09:00:00-05:00',
      '2026-12-09T21:00:00.000Z',
    ],
    [
      'can u bring the handyman forward 2 hours next tues, want it done before i head out',
      booking('BKG-1011', 'svc_handyman_hour', 'Handyman Hour', '2026-12-15T11:00:00-05:00'),
      '2026-12-15T09:00:00-05:00',
      undefined,
    ],
    [
      'the fan install on the 18th, could it be same time but the monday after?',
      booking('BKG-1016', 'svc_ceiling_fan_install', 'Ceiling Fan Installation', '2026-12-18T08:00:00-05:00'),
      '2026-12-21T08:00:00-05:00',
      undefined,
    ],
  ])('%s', (text, b, iso, now) => {
    const t = converse(text, [b], now);
    expect(t.calls, t.content).toEqual([
      { name: 'reschedule_booking', args: { customer_id: 'cus_001', booking_id: b.id, new_start_time: iso } },
    ]);
  });
});

describe('a service told by the job', () => {
  it.each([
    [
      'one of the kitchen cupboard doors is hanging off its hinge, could someone pop round wed at noon to sort it',
      'svc_handyman_hour',
      '2026-12-09T12:00:00-05:00',
    ],
    [
      'the movers bashed the hallway wall in 2 spots, holes maybe fist size?? can someone fix it day after ' +
        'tomorrow at 3',
      'svc_drywall_patch',
      '2026-12-09T15:00:00-05:00',
    ],
  ])('%s', (text, service_id, start_time) => {
    expect(plan(seedContext(), text).calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      service_id,
      start_time,
    });
  });
});

describe('which of two times their own visit is at', () => {
  it('tmrws cleaning, is that 8 or 9? cant remember', () => {
    const clean = booking('BKG-1001', 'svc_standard_clean', 'Standard Home Cleaning', '2026-12-08T08:00:00-05:00');
    const first = plan(
      seedContext(),
      'tmrws cleaning, is that 8 or 9? cant remember and dont want to be in the shower lol',
    );
    expect(callNames(first)).toEqual(['lookup_customer']);
    const t = converse('tmrws cleaning, is that 8 or 9? cant remember and dont want to be in the shower lol', [clean]);
    expect(t.content).toMatch(/8:00/);
  });
});
