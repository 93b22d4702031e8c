import { describe, expect, it } from 'vitest';
import {
  afterLookup,
  argsOf,
  afterOurQuestion,
  afterRecord,
  answerAfterLookup,
  plan,
  seedArticles,
  seedContext,
  upcoming,
  writeNames,
} from './testing.js';

/* Classes found by the blind set outsider-34 (writes nobody asked for, asking first, then the answer). */
const ctx = seedContext();
const DRYWALL_THU = upcoming('BKG-1005', 'svc_drywall_patch', '2026-12-10T08:00:00-05:00');
const TV_THU = upcoming('BKG-1006', 'svc_tv_mount', '2026-12-10T14:00:00-05:00');
const FAN_SAT = upcoming('BKG-1008', 'svc_ceiling_fan_install', '2026-12-12T10:00:00-05:00');
const FAN_18 = upcoming('BKG-1017', 'svc_ceiling_fan_install', '2026-12-18T08:00:00-05:00');
const CLEAN_MON = upcoming('BKG-1009', 'svc_standard_clean', '2026-12-14T08:00:00-05:00');

describe('what the question kept: the answer completes the time said before it', () => {
  it('"push the drywall job to fri afternoon" → which start; "2pm" is on that Friday', () => {
    const asked = afterLookup(ctx, 'hey can u push the drywall job to fri afternoon', [DRYWALL_THU]);
    expect(writeNames(asked)).toEqual([]);
    const t = answerAfterLookup(ctx, 'hey can u push the drywall job to fri afternoon', [DRYWALL_THU], '2pm');
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1005',
      new_start_time: '2026-12-11T14:00:00-05:00',
    });
  });

  it('"push the tv mounting to next week? 10am if possible" → which day; "friday the 18th" keeps 10 AM', () => {
    const first = 'can we push the tv mounting to next week? 10am if possible';
    expect(writeNames(afterLookup(ctx, first, [TV_THU]))).toEqual([]);
    const t = answerAfterLookup(ctx, first, [TV_THU], 'friday the 18th');
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1006',
      new_start_time: '2026-12-18T10:00:00-05:00',
    });
  });

  it('guard: "move my tv mounting" → when; "friday the 18th" keeps the booked hour', () => {
    const t = answerAfterLookup(ctx, 'can you move my tv mounting?', [TV_THU], 'friday the 18th');
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({ new_start_time: '2026-12-18T14:00:00-05:00' });
  });
});

describe('a move in words relative to the visit', () => {
  it('"could the fan install on the 18th happen one day earlier instead? same hour"', () => {
    const t = afterLookup(ctx, 'could the fan install on the 18th happen one day earlier instead? same hour', [FAN_18]);
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1017',
      new_start_time: '2026-12-17T08:00:00-05:00',
    });
  });

  it('"my cleaning appointment, can you make it one hour more late? Same day."', () => {
    const t = afterLookup(
      ctx,
      'Hello. Please, my cleaning appointment, can you make it one hour more late? Same day. Thank you very much.',
      [CLEAN_MON],
    );
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1009',
      new_start_time: '2026-12-14T09:00:00-05:00',
    });
  });
});

describe('a visit taken back in formal words', () => {
  it('"kindly withdraw my ceiling fan appointment this Saturday" cancels it', () => {
    const t = afterLookup(
      ctx,
      'Good morning. I would be most grateful if you could kindly withdraw my ceiling fan appointment this ' +
        'Saturday; circumstances have changed. Many thanks.',
      [FAN_SAT],
    );
    expect(t.calls.find((c) => c.name === 'cancel_booking')?.args).toMatchObject({ booking_id: 'BKG-1008' });
  });
});

describe('a booking asked for in other words', () => {
  it('"arrange an end-of-tenancy clean at my own address for Monday the 14th at eleven o\'clock"', () => {
    const t = plan(
      ctx,
      "Would you please arrange an end-of-tenancy clean at my own address for Monday the 14th at eleven o'clock?",
    );
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      service_id: 'svc_move_out_clean',
      start_time: '2026-12-14T11:00:00-05:00',
    });
  });

  it('"a regular clean this weekend" → which start (Sunday is closed); "11 please" is Saturday at 11', () => {
    const t = afterOurQuestion(ctx, 'could someone come do a regular clean this weekend? 🐰', '11 please');
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      service_id: 'svc_standard_clean',
      start_time: '2026-12-12T11:00:00-05:00',
    });
  });
});

describe('an address to keep, in other words', () => {
  it('"finally got a place: 77 Quarry Lane, Quarry Falls, MH 3150. stick that on my file please"', () => {
    const t = plan(ctx, 'finally got a place: 77 Quarry Lane, Quarry Falls, MH 3150. stick that on my file please');
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { address: { line1: '77 Quarry Lane', city: 'Quarry Falls', postal_code: 'MH 3150' } },
    });
  });
});

describe('a visit at another home of theirs, named by its street', () => {
  it('"an end-of-tenancy clean for Saturday 19th at 10am at our Dock Street flat": where is asked first', () => {
    const t = plan(
      ctx,
      'Please book an end-of-tenancy clean for Saturday 19th at 10am at our Dock Street flat – the tenants are out.',
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/address/i);
  });
});

describe('which booking, and to when, in the answer', () => {
  const DRYWALL_16 = upcoming('BKG-1013', 'svc_drywall_patch', '2026-12-16T08:00:00-05:00');
  const TV_16 = upcoming('BKG-1014', 'svc_tv_mount', '2026-12-16T14:00:00-05:00');

  it('"move my drywall patch to Friday the 17th at 8": the 17th is a Thursday, so which day is asked', () => {
    const t = afterLookup(ctx, 'Could I move my drywall patch to Friday the 17th at 8?', [DRYWALL_16]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Thu(rsday)?, Dec 17|Fri(day)?, Dec 18/);
    const then = answerAfterLookup(
      ctx,
      'Could I move my drywall patch to Friday the 17th at 8?',
      [DRYWALL_16],
      'oh, Thursday the 17th. sorry!',
    );
    expect(argsOf(then, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1013',
      new_start_time: '2026-12-17T08:00:00-05:00',
    });
  });

  it('"move my cleaning to thursday" (a TV mounting booked); "I meant the TV mounting. Thursday 17th at 2pm"', () => {
    const t = answerAfterLookup(
      ctx,
      'please move my cleaning to thursday',
      [TV_16],
      'oh right, I meant the TV mounting. Thursday the 17th at 2pm',
    );
    expect(argsOf(t, 'reschedule_booking')).toMatchObject({
      booking_id: 'BKG-1014',
      new_start_time: '2026-12-17T14:00:00-05:00',
    });
  });
});

describe('a record change asked for without its value', () => {
  it('"change the preferred time on my account" → which; "afternoons" sets it', () => {
    const first = 'Could you change the preferred time on my account? My work hours changed.';
    const asked = plan(ctx, first);
    expect(writeNames(asked)).toEqual([]);
    expect(asked.content).toMatch(/\?/);
    const t = afterOurQuestion(ctx, first, 'afternoons');
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { preferences: { preferred_time: 'afternoons' } },
    });
  });

  it('"new address: 14 Harbour View" → the rest; "Maple Harbor, MH 1024. it\'s a house" completes it', () => {
    const t = afterOurQuestion(
      ctx,
      "we're moving next month!! new address: 14 Harbour View",
      "Maple Harbor, MH 1024. it's a house so no unit",
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { address: { line1: '14 Harbour View', city: 'Maple Harbor', postal_code: 'MH 1024' } },
    });
  });
});

describe('an email of what is booked', () => {
  it('"Send me an email with the details of my cleaning appointment": the booking, emailed', () => {
    const t = afterLookup(
      ctx,
      'Send me an email with the details of my cleaning appointment, I want to forward it to my wife.',
      [CLEAN_MON],
    );
    const email = t.calls.find((c) => c.name === 'send_email')?.args;
    expect(email?.body).toMatch(/Dec 14|December 14/);
  });
});

describe('a change that is already true on the record', () => {
  it('"please make sure you contact me by email, not text" with email on file: said so, nothing proposed', () => {
    const t = afterRecord(ctx, 'please make sure you contact me by email, not text', {
      preferences: { contact: 'email' },
    });
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/already/i);
  });

  it('the same with texts on file: the change is proposed', () => {
    const t = afterRecord(ctx, 'please make sure you contact me by email, not text', {
      preferences: { contact: 'sms' },
    });
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { preferences: { contact: 'email' } },
    });
  });
});

describe("another company's visit, said in passing", () => {
  it('"(wife wants to cancel the gutter guys but that\'s another company)": the question is answered', () => {
    const t = plan(
      seedContext({ retrieved: seedArticles('kb-preparing-for-a-visit-04') }),
      'random q, do your window cleaning people bring their own ladders? (wife wants to cancel the gutter guys ' +
        "but that's another company, not you lol)",
    );
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/ladder/i);
    expect(t.content).not.toMatch(/cancel/i);
  });
});
