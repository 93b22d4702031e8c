import { describe, expect, it } from 'vitest';
import { afterLookup, callNames, plan, seedContext, upcoming } from './testing.js';

// Failures of a blind set of complete everyday requests (evals/open/outsider-28-SCENARIOS.md), as classes: a time or an
// email corrected within the message, a booking named by its day and what it is ("cancel tue windows", "the window
// ppl this saturday", "the cleaning of tomorrow", "the rendezvous of Wednesday"), a move said as "pass it to", a visit
// asked about by who comes ("the fan guy next week, what time was it again?"), services described by the job.

const ctx = seedContext(); // Monday, Dec 7, 9:00 AM
const at = (now: string) => seedContext({ now });
const call = (t: { calls: { name: string; args: Record<string, unknown> }[] }, name: string) =>
  t.calls.find((c) => c.name === name)?.args;

describe('a value corrected within the message: the correction counts', () => {
  it('a time', () => {
    const t = plan(
      ctx,
      'kitchen tap drips nonstop. can someone come thurs 10th at 2pm.. no wait school pickup, make it 3',
    );
    expect(call(t, 'book_slot')).toMatchObject({ start_time: '2026-12-10T15:00:00-05:00' });
  });
  it('an email', () => {
    const t = plan(
      ctx,
      'Kindly update my email id to priyapatel@inbox.example.com .. oh sorry, there is a dot in between: ' +
        'priya.patel@inbox.example.com. Thank you',
    );
    expect(call(t, 'update_customer')).toMatchObject({ changes: { email: 'priya.patel@inbox.example.com' } });
  });
});

describe('a booking named by its day and what it is', () => {
  const windowsTue = upcoming('BKG-1002', 'svc_window_clean', '2026-12-08T14:00:00-05:00');
  it('"cancel tue windows"', () => {
    const t = afterLookup(ctx, 'cancel tue windows. thx', [windowsTue]);
    expect(call(t, 'cancel_booking')).toMatchObject({ booking_id: 'BKG-1002' });
  });
  it('"the window ppl this saturday … monday at 2 instead"', () => {
    const sat = upcoming('BKG-1018', 'svc_window_clean', '2026-12-19T11:00:00-05:00');
    const t = afterLookup(
      at('2026-12-17T17:00:00.000Z'),
      'heyy so the window ppl this saturday, something came up 🙃 can we do monday at 2 instead?',
      [sat],
    );
    expect(call(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1018',
      new_start_time: '2026-12-21T14:00:00-05:00',
    });
  });
  it('"the cleaning of tomorrow … pass it to Thursday at 9"', () => {
    const clean = upcoming('BKG-1001', 'svc_standard_clean', '2026-12-08T08:00:00-05:00');
    const t = afterLookup(
      ctx,
      'Hola, the cleaning of tomorrow, I cannot be there. Please pass it to Thursday at 9 in the morning. I know is ' +
        'short notice, sorry',
      [clean],
    );
    expect(call(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1001',
      new_start_time: '2026-12-10T09:00:00-05:00',
    });
  });
  it('"annul the rendezvous of Wednesday"', () => {
    const wall = upcoming('BKG-1013', 'svc_drywall_patch', '2026-12-16T08:00:00-05:00');
    const t = afterLookup(
      at('2026-12-13T16:00:00.000Z'),
      'Hello, my landlord will send his own worker for the wall finally, so please can you annul the rendezvous of ' +
        'Wednesday? Thank you very much',
      [wall],
    );
    expect(call(t, 'cancel_booking')).toMatchObject({ booking_id: 'BKG-1013' });
  });
});

describe('their visit asked about by who comes or what it is', () => {
  it.each([
    'the fan guy next week, what time was it again?',
    'which day is the handyman booked and what will it cost me',
  ])('%s', (text) => {
    expect(callNames(plan(ctx, text))).toEqual(['lookup_customer']);
  });
});

describe('a service described by the job', () => {
  it.each([
    ['need the usual clean 🙏 dust, hoover, mop, 3 bed 2 bath. this friday at 1pm?', 'svc_standard_clean'],
    [
      'I hand back the keys of my flat on the 18th and the landlord inspects that day. I need the empty flat cleaned ' +
        'properly beforehand, inside the fridge and all cupboards included. Thursday the 17th at 9 am, please.',
      'svc_move_out_clean',
    ],
  ])('%s', (text, service) => {
    expect(call(plan(ctx, text), 'book_slot')).toMatchObject({ service_id: service });
  });
});
