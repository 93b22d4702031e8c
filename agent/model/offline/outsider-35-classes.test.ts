import { describe, expect, it } from 'vitest';
import {
  afterLookup,
  argsOf,
  afterOurQuestion,
  answerAfterLookup,
  plan,
  planMessage,
  seedContext,
  upcoming,
  writeNames,
} from './testing.js';

/* Classes found by the blind set outsider-35 (writes nobody asked for after an exchange, asking first, answers). */
const ctx = seedContext();

describe('a visit no longer wanted, in other words', () => {
  it('"we won\'t be needing the handyman on the 15th after all" cancels it', () => {
    const t = afterLookup(
      ctx,
      "we won't be needing the handyman on the 15th after all, my brother-in-law sorted the shelves",
      [upcoming('BKG-1011', 'svc_handyman_hour', '2026-12-15T11:00:00-05:00')],
    );
    expect(argsOf(t, 'cancel_booking')).toMatchObject({ booking_id: 'BKG-1011' });
  });

  it('"you can take me off saturday\'s schedule" cancels that visit', () => {
    const t = afterLookup(
      ctx,
      "the electrician ended up doing the fan himself so you can take me off saturday's schedule",
      [upcoming('BKG-1008', 'svc_ceiling_fan_install', '2026-12-12T09:00:00-05:00')],
    );
    expect(argsOf(t, 'cancel_booking')).toMatchObject({ booking_id: 'BKG-1008' });
  });
});

describe('a move by a relative amount', () => {
  it('"a couple of hours later than planned on Friday? Same day is fine."', () => {
    const t = afterLookup(
      seedContext({ now: '2026-12-14T14:00:00.000Z' }),
      'Could the fan fitter come a couple of hours later than planned on Friday? Same day is fine.',
      [upcoming('BKG-1016', 'svc_ceiling_fan_install', '2026-12-18T08:00:00-05:00')],
    );
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1016',
      new_start_time: '2026-12-18T10:00:00-05:00',
    });
  });
});

describe('where the visit is', () => {
  it('"a move-out clean at one of my units, Friday the 18th at 9am": which unit is asked first', () => {
    const t = plan(ctx, 'Need a move-out clean at one of my units, Friday the 18th at 9am.');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/address/i);
  });
});

describe('the earliest start', () => {
  it('"saturday, earliest you\'ve got" after we asked which day: the first Saturday start', () => {
    const t = afterOurQuestion(
      seedContext({ now: '2026-12-09T15:00:00.000Z' }),
      'Biscuit got into the flour 🙄 need a deep clean this fri or sat',
      "saturday, earliest you've got",
    );
    expect(argsOf(t, 'book_slot')).toMatchObject({
      service_id: 'svc_deep_clean',
      start_time: '2026-12-12T09:00:00-05:00',
    });
  });
});

describe('values said in words', () => {
  it('"sophie at laurent-design dot example dot org" is an email address', () => {
    const t = plan(
      ctx,
      'Hello, please could you use my work email from now on: sophie at laurent-design dot example dot org. Merci!',
    );
    expect(argsOf(t, 'update_customer')).toMatchObject({ changes: { email: 'sophie@laurent-design.example.org' } });
  });

  it('"we adopted a second cat so it is two cats now": the pets are two cats', () => {
    const t = plan(ctx, 'Some updates for my profile please: we adopted a second cat so it is two cats now.');
    expect(argsOf(t, 'update_customer')).toMatchObject({ changes: { preferences: { pets: 'two cats' } } });
  });
});

describe('an address completed after our question', () => {
  it('"44 Lantern Yard, unit 2" then "maple harbor, MH 1012"', () => {
    const t = afterOurQuestion(
      ctx,
      "here's my address for the account: 44 Lantern Yard, unit 2",
      'maple harbor, MH 1012',
    );
    expect(argsOf(t, 'update_customer')).toMatchObject({
      changes: { address: { line1: '44 Lantern Yard', unit: 'Unit 2', postal_code: 'MH 1012' } },
    });
  });
});

describe('a move with the day left open', () => {
  const THERMOSTAT = upcoming('BKG-1024', 'svc_smart_thermostat_install', '2026-12-15T16:00:00-05:00');
  const thursday = seedContext({ now: '2026-12-10T16:00:00.000Z' });

  it('"could the thermostat install happen earlier? mon or tue?" → which; "monday 10am" moves it', () => {
    const first = 'any chance the thermostat install could happen earlier? mon or tue?';
    expect(writeNames(afterLookup(thursday, first, [THERMOSTAT]))).toEqual([]);
    const t = answerAfterLookup(thursday, first, [THERMOSTAT], 'monday 10am');
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1024',
      new_start_time: '2026-12-14T10:00:00-05:00',
    });
  });

  it('"move the drywall repair to next week sometime" → which day; "tuesday" is next week\'s', () => {
    const DRYWALL = upcoming('BKG-1005', 'svc_drywall_patch', '2026-12-10T08:00:00-05:00');
    const t = answerAfterLookup(ctx, 'gotta move the drywall repair to next week sometime', [DRYWALL], 'tuesday at 8?');
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({ new_start_time: '2026-12-15T08:00:00-05:00' });
  });
});

describe('the address of another home, answering our question for it', () => {
  it.each([
    'Need a move-out clean at one of my units, Friday the 18th at 9am.',
    "Need a move-out clean at my mum's house, Friday the 18th at 9am.",
  ])('%s → "51 Chandler Row, Apt 2, … MH 1012. Tenant\'s out by then" books it there', (first) => {
    const t = afterOurQuestion(
      ctx,
      first,
      "51 Chandler Row, Apt 2, Maple Harbor MH 1012. Tenant's out by then, key is in the lockbox (3390).",
    );
    const args = argsOf(t, 'book_slot');
    expect(args).toMatchObject({ service_id: 'svc_move_out_clean', start_time: '2026-12-18T09:00:00-05:00' });
    expect(args?.notes).toMatch(/51 Chandler Row, Apt 2, Maple Harbor MH 1012/);
    expect(args?.notes).toMatch(/lockbox \(3390\)/);
  });

  it('guard: a question instead of the address books nothing', () => {
    const t = afterOurQuestion(
      ctx,
      'Need a move-out clean at one of my units, Friday the 18th at 9am.',
      'do you go out as far as pinecrest?',
    );
    expect(writeNames(t)).toEqual([]);
  });
});

describe('a job none of our services does', () => {
  it('"can you guys paint our hallway?" → we don\'t; the drywall patch then, on Thursday at 1pm', () => {
    const first = 'hey can you guys paint our hallway? we are renovating downstairs and the walls are a mess';
    const said = plan(ctx, first);
    expect(writeNames(said)).toEqual([]);
    expect(said.content).toMatch(/don't offer a service to paint your hallway.*which would you like.*\?/s);
    const second = 'ugh fine, the drywall patch then, there are 3 holes. thursday?';
    const asked = plan(ctx, first, planMessage(ctx, first), second);
    expect(writeNames(asked)).toEqual([]);
    const t = plan(
      ctx,
      first,
      planMessage(ctx, first),
      second,
      planMessage(ctx, first, planMessage(ctx, first), second),
      '1pm',
    );
    expect(argsOf(t, 'book_slot')).toMatchObject({
      service_id: 'svc_drywall_patch',
      start_time: '2026-12-10T13:00:00-05:00',
    });
  });
});
