import { describe, expect, it } from 'vitest';
import {
  afterLookup,
  afterOurQuestion,
  afterRecord,
  answerAfterLookup,
  MARIA,
  makeContext,
  pendingBooking,
  plan,
  seedContext,
  upcoming,
  writeNames,
} from './testing.js';

/* Classes found by the blind set outsider-33 (asking first, or leaving alone, then acting on the answer). */
const ctx = seedContext();

describe('a visit asked for in other words', () => {
  it('"I should be grateful if you could send a handyman on Thursday the 10th, some time in the morning"', () => {
    const t = plan(
      ctx,
      'Good morning. I should be grateful if you could send a handyman on Thursday the 10th, some time in the ' +
        'morning, to re-hang the door of my bathroom cabinet, which has come loose.',
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Handyman Hour/);
    expect(t.content).toMatch(/what time|which time|\?/i);
  });

  it('"need someone to put up blinds, tue 8th at 4pm": blinds are the handyman’s', () => {
    const t = plan(ctx, 'need someone to put up blinds, tue 8th at 4pm');
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({ service_id: 'svc_handyman_hour' });
  });
});

describe('someone else’s number', () => {
  it('"pls add my gf\'s number to my account 555 201 9988": not put in place of theirs', () => {
    const t = plan(ctx, "pls add my gf's number to my account 555 201 9988, she's moved in");
    expect(writeNames(t)).toEqual([]);
  });
});

describe('a visit no longer needed', () => {
  const WINDOWS_SAT = upcoming('BKG-1018', 'svc_window_clean', '2026-12-19T11:00:00-05:00');

  it('"We won\'t be needing Saturday\'s window people after all": cancels that visit', () => {
    const t = afterLookup(
      ctx,
      "We won't be needing Saturday's window people after all, the landlord is sending his own guy. Sorry!",
      [WINDOWS_SAT],
    );
    expect(t.calls.find((c) => c.name === 'cancel_booking')?.args).toMatchObject({ booking_id: 'BKG-1018' });
  });
});

describe('a request taken back', () => {
  it('"oh wait, scrap that — my dad just said he\'ll do it this weekend": withdrawn, not moved to the weekend', () => {
    const first = 'Could I get a handyman on Friday the 11th at 9 to fix a wardrobe door that won’t close?';
    const booked = plan(ctx, first);
    expect(writeNames(booked)).toEqual(['book_slot']);
    const t = plan(
      { ...ctx, pending: [pendingBooking({ args: { customer_id: MARIA.id, ...booked.calls[0]!.args } })] },
      first,
      "oh wait, scrap that — my dad just said he'll do it this weekend",
    );
    expect(t.calls.map((c) => c.name)).toEqual(['withdraw_request']);
  });
});

describe('an answer to our question', () => {
  it('"4420 is correct" after we asked which of two numbers: the one ending 4420', () => {
    const t = afterOurQuestion(
      ctx,
      "Morning! Do update my mobile on the account please — it's 555 318 4420. If there are any problems on the day, " +
        'just text me on 555 318 4402.',
      'Gosh, sorry — 4420 is correct, the other one was my thumbs.',
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { phone: '555 318 4420' },
    });
  });
});

describe('a start said in words', () => {
  it('"Ten o\'clock would suit me admirably" after we asked what time: books 10:00', () => {
    const t = afterOurQuestion(
      ctx,
      'Good morning. I should be grateful if you could send a handyman on Thursday the 10th, some time in the ' +
        'morning, to re-hang the door of my bathroom cabinet.',
      "Ten o'clock would suit me admirably, thank you.",
    );
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      start_time: '2026-12-10T10:00:00-05:00',
    });
  });

  it('"ah wait I\'ve got the dentist then — 5 instead?" of a request at 4pm: the same request at 5pm', () => {
    const first = 'need someone to put up blinds, tue 8th at 4pm';
    const booked = plan(ctx, first);
    const t = plan(
      { ...ctx, pending: [pendingBooking({ args: { customer_id: MARIA.id, ...booked.calls[0]!.args } })] },
      first,
      "ah wait I've got the dentist then — 5 instead?",
    );
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      start_time: '2026-12-08T17:00:00-05:00',
    });
  });
});

describe('a change that keeps the rest of what is on file', () => {
  const ON_FILE = { line1: '48 Mill Street', unit: null, city: 'Maple Harbor', postal_code: 'MH 1016' };

  it.each([
    ["We've moved next door!! Number 50 Mill Street now, everything else the same"],
    ["we're not at 48 mill street anymore, its 50 mill street now, same postcode"],
  ])('"%s": the new street line, city and postal code kept', (text) => {
    const t = afterRecord(makeContext(), text, { address: ON_FILE, notes: '' });
    expect(t.calls).toEqual([
      {
        name: 'update_customer',
        args: {
          customer_id: 'cus_001',
          changes: { address: { ...ON_FILE, line1: '50 Mill Street', unit: undefined } },
        },
      },
    ]);
  });

  it('"The gate code has been changed to 7731": the old code in the notes is replaced, not kept beside it', () => {
    const t = afterRecord(makeContext(), 'The gate code has been changed to 7731; the old one no longer works.', {
      notes: 'Gate code 4412. Parking in the drive.',
    });
    const notes = String((t.calls[0]?.args.changes as { notes?: string })?.notes);
    expect(notes).toContain('7731');
    expect(notes).not.toContain('4412');
    expect(notes).toContain('Parking in the drive');
  });
});

describe('more ways to ask for a visit or a change', () => {
  it('"can someone have a look at our squeaky stairs on tuesday": a handyman visit; the day and time are asked', () => {
    const t = plan(ctx, 'can someone have a look at our squeaky stairs on tuesday');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Handyman Hour/);
    expect(t.content).toMatch(/\?/);
  });

  it('"swap the thermostat install to the morning": a move, and which morning start is asked', () => {
    const THERMOSTAT = upcoming('BKG-1024', 'svc_smart_thermostat_install', '2026-12-15T16:00:00-05:00');
    const t = afterLookup(
      ctx,
      'Is there any way to swap the thermostat install to the morning? The afternoon clashes with school pickup.',
      [THERMOSTAT],
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/What time in the morning on Tue, Dec 15/);
  });

  it('"the ceiling fan is backordered, so Saturday is no good": moving or cancelling the booked visit is asked', () => {
    const FAN_SAT = upcoming('BKG-1008', 'svc_ceiling_fan_install', '2026-12-12T09:00:00-05:00');
    const t = afterLookup(
      ctx,
      'Bad news on my end: the ceiling fan I ordered is backordered until after Christmas, so Saturday is no good.',
      [FAN_SAT],
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/cancel it/);
  });
});

describe('pets told as they are now', () => {
  it('"my cat is now two cats … Please write it for the cleaners": the pets on file become two cats', () => {
    const t = plan(
      ctx,
      'Hello, my cat is now two cats, we take the kitten from my sister. Please write it for the cleaners.',
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { preferences: { pets: 'two cats' } },
    });
  });
});

describe('which of the bookings we listed', () => {
  it('"the later one": the booking that comes later', () => {
    const bookings = [
      upcoming('BKG-1029', 'svc_handyman_hour', '2026-12-10T11:00:00-05:00'),
      upcoming('BKG-1017', 'svc_standard_clean', '2026-12-18T14:00:00-05:00'),
    ];
    const text = 'Something came up, can you move my appointment to Wednesday the 16th at 10am?';
    expect(writeNames(afterLookup(ctx, text, bookings))).toEqual([]);
    const t = answerAfterLookup(ctx, text, bookings, 'the later one');
    expect(t.calls.find((c) => c.name === 'reschedule_booking')?.args).toMatchObject({
      booking_id: 'BKG-1017',
      new_start_time: '2026-12-16T10:00:00-05:00',
    });
  });
});

describe('cancelling, when we asked when to move it', () => {
  it('"Yes, please cancel it" after "which day … moved to? Or … I can cancel it": cancels that visit', () => {
    const FAN_SAT = upcoming('BKG-1008', 'svc_ceiling_fan_install', '2026-12-12T09:00:00-05:00');
    const text =
      'Bad news on my end: the ceiling fan I ordered is backordered until after Christmas, so Saturday is no good.';
    expect(afterLookup(ctx, text, [FAN_SAT]).content).toMatch(/cancel it/);
    const t = answerAfterLookup(
      ctx,
      text,
      [FAN_SAT],
      "Yes, please cancel it. I'll book again once the fan is actually here.",
    );
    expect(t.calls.map((c) => c.name)).toEqual(['cancel_booking']);
    expect(t.calls[0]!.args).toMatchObject({ booking_id: 'BKG-1008' });
  });
});

describe('another way to be contacted', () => {
  it('"texts just aren\'t working for me. contact me the other way from now on": email or calls is asked', () => {
    const t = plan(ctx, "texts just aren't working for me. contact me the other way from now on");
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/How would you like us to contact you instead: by email or phone call/);
  });

  it('"calls." then sets the contact preference to phone', () => {
    const t = afterOurQuestion(
      ctx,
      "texts just aren't working for me. contact me the other way from now on",
      'calls. i never check my email either lol',
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { preferences: { contact: 'phone' } },
    });
  });
});

describe('an address completed across two messages', () => {
  const first =
    "finally have a place of my own! it's 27 Quayside Road, unit 5, Maple Harbor. can you put that on my account";

  it('an address without its postal code, asked to go on the account: the rest is asked for', () => {
    const t = plan(ctx, first);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/postal code/);
  });

  it('"MH 1024, it\'s in Lighthouse Point" then completes it', () => {
    const t = afterOurQuestion(ctx, first, "MH 1024, it's in Lighthouse Point");
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { address: { line1: '27 Quayside Road', unit: 'Unit 5', city: 'Maple Harbor', postal_code: 'MH 1024' } },
    });
  });
});

describe('the visit they have, later the same day', () => {
  const CLEAN_MON_14 = upcoming('BKG-1009', 'svc_standard_clean', '2026-12-14T08:00:00-05:00');

  it('"can the cleaners come later on the 14th? 8am is brutal": a move of that visit; the time is asked', () => {
    const t = afterLookup(ctx, 'can the cleaners come later on the 14th? 8am is brutal 😴', [CLEAN_MON_14]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Standard Home Cleaning moved to/);
  });
});

describe('an hour sent with an emoji', () => {
  it('"11 👍" after we asked when to move the visit: 11:00 that day', () => {
    const CLEAN_MON_14 = upcoming('BKG-1009', 'svc_standard_clean', '2026-12-14T08:00:00-05:00');
    const text = 'can the cleaners come later on the 14th? 8am is brutal 😴';
    const t = answerAfterLookup(ctx, text, [CLEAN_MON_14], '11 👍');
    expect(t.calls.find((c) => c.name === 'reschedule_booking')?.args).toMatchObject({
      booking_id: 'BKG-1009',
      new_start_time: '2026-12-14T11:00:00-05:00',
    });
  });
});
