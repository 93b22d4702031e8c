import { describe, expect, it } from 'vitest';
import {
  afterLookup,
  afterOurQuestion,
  answerAfterLookup,
  plan,
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

const moveOf = (t: { calls: { name: string; args: Record<string, unknown> }[] }) =>
  t.calls.find((c) => c.name === 'reschedule_booking')?.args;

describe('what the question kept: the answer completes the time said before it', () => {
  it('"push the drywall job to fri afternoon" → which start; "2pm" is on that Friday', () => {
    const asked = afterLookup(ctx, 'hey can u push the drywall job to fri afternoon', [DRYWALL_THU]);
    expect(writeNames(asked)).toEqual([]);
    const t = answerAfterLookup(ctx, 'hey can u push the drywall job to fri afternoon', [DRYWALL_THU], '2pm');
    expect(moveOf(t)).toMatchObject({ booking_id: 'BKG-1005', new_start_time: '2026-12-11T14:00:00-05:00' });
  });

  it('"push the tv mounting to next week? 10am if possible" → which day; "friday the 18th" keeps 10 AM', () => {
    const first = 'can we push the tv mounting to next week? 10am if possible';
    expect(writeNames(afterLookup(ctx, first, [TV_THU]))).toEqual([]);
    const t = answerAfterLookup(ctx, first, [TV_THU], 'friday the 18th');
    expect(moveOf(t)).toMatchObject({ booking_id: 'BKG-1006', new_start_time: '2026-12-18T10:00:00-05:00' });
  });

  it('guard: "move my tv mounting" → when; "friday the 18th" keeps the booked hour', () => {
    const t = answerAfterLookup(ctx, 'can you move my tv mounting?', [TV_THU], 'friday the 18th');
    expect(moveOf(t)).toMatchObject({ new_start_time: '2026-12-18T14:00:00-05:00' });
  });
});

describe('a move in words relative to the visit', () => {
  it('"could the fan install on the 18th happen one day earlier instead? same hour"', () => {
    const t = afterLookup(ctx, 'could the fan install on the 18th happen one day earlier instead? same hour', [FAN_18]);
    expect(moveOf(t)).toMatchObject({ booking_id: 'BKG-1017', new_start_time: '2026-12-17T08:00:00-05:00' });
  });

  it('"my cleaning appointment, can you make it one hour more late? Same day."', () => {
    const t = afterLookup(
      ctx,
      'Hello. Please, my cleaning appointment, can you make it one hour more late? Same day. Thank you very much.',
      [CLEAN_MON],
    );
    expect(moveOf(t)).toMatchObject({ booking_id: 'BKG-1009', new_start_time: '2026-12-14T09:00:00-05:00' });
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
