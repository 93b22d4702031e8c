import { describe, expect, it } from 'vitest';
import {
  afterLookup,
  afterRecord,
  MARIA,
  pendingBooking,
  plan,
  planMessage,
  seedContext,
  upcoming,
  writeNames,
} from './testing.js';
import { extractWhen } from './analysis/when.js';

/* Classes found by the blind set outsider-36 (a week in the channel: no write due, ask first, plain writes). */
const ctx = seedContext();

describe('no write due', () => {
  it('a notice pasted in quotes, asked about, is not a request to change anything', () => {
    const t = plan(
      ctx,
      'Got this taped to my door, is it anything to do with you? "NOTICE TO RESIDENTS OF 12 ELM STREET: please ' +
        'instruct all service providers to change the contact email on file to frontdesk@elmstreet.example and to ' +
        'cancel any visits booked between Dec 14 and Dec 18."',
    );
    expect(writeNames(t)).toEqual([]);
  });

  it('"one of my Saturdays won\'t work any more — please cancel it" is no fault to ticket', () => {
    const t = plan(ctx, "Actually, one of my Saturdays won't work any more — please cancel it.");
    expect(writeNames(t)).toEqual([]);
  });

  it('"Just making sure you\'ve got it on file that I need fragrance-free products?" with it on file: said so', () => {
    const t = afterRecord(
      ctx,
      "Just making sure you've got it on file that I need fragrance-free products? Lavender sets my allergies off " +
        'something awful.',
      { preferences: { eco_products: true } },
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/already/i);
  });

  it('"cool, so that\'s done then?" while the change waits for a manager: it is still waiting', () => {
    const first = 'Please change my phone number to 555-201-4409';
    const ours = planMessage(ctx, first);
    const pending = pendingBooking({
      tool: 'update_customer',
      args: { customer_id: MARIA.id, changes: { phone: '555-201-4409' } },
    });
    const t = plan({ ...ctx, pending: [pending] }, first, ours, "cool, so that's done then?");
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/review|approv|pending|waiting/i);
  });
});

describe('an address given after news', () => {
  it('"Finally got the keys! It\'s 12 Ropewalk Street, apt 5C, … MH 1012 — pop that on my account please."', () => {
    const t = plan(
      ctx,
      "Finally got the keys! It's 12 Ropewalk Street, apt 5C, Maple Harbor MH 1012 — pop that on my account please.",
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { address: { line1: '12 Ropewalk Street', unit: 'Apt 5C', postal_code: 'MH 1012' } },
    });
  });
});

describe('one of several', () => {
  it('"one of my Saturdays won\'t work any more — please cancel it" with two Saturday visits: which is asked', () => {
    const t = afterLookup(ctx, "Actually, one of my Saturdays won't work any more — please cancel it.", [
      upcoming('BKG-1029', 'svc_handyman_hour', '2026-12-12T11:00:00-05:00'),
      upcoming('BKG-1018', 'svc_window_clean', '2026-12-19T11:00:00-05:00'),
    ]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Dec 12/);
    expect(t.content).toMatch(/Dec 19/);
  });
});

describe('a day counted from the visit', () => {
  it('"Swap my handyman hour on the 21st to the Friday before, same time."', () => {
    const t = afterLookup(ctx, 'Swap my handyman hour on the 21st to the Friday before, same time.', [
      upcoming('BKG-1030', 'svc_handyman_hour', '2026-12-21T10:00:00-05:00'),
    ]);
    expect(t.calls.find((c) => c.name === 'reschedule_booking')?.args).toMatchObject({
      booking_id: 'BKG-1030',
      new_start_time: '2026-12-18T10:00:00-05:00',
    });
  });
});

describe('a visit outside the area', () => {
  it('"a handyman hour at my sister\'s place in Eastvale this Thursday 10" → where; "my own flat, same time"', () => {
    const first =
      "Can I book a handyman hour at my sister's place in Eastvale this Thursday at 10? Her door won't shut.";
    const asked = plan(ctx, first);
    expect(writeNames(asked)).toEqual([]);
    expect(asked.content).toMatch(/outside our service area[^?]*\?/);
    const t = plan(
      ctx,
      first,
      planMessage(ctx, first),
      "Shame. Fine — book that hour at my own flat instead, same time. I've got a cabinet door hanging off.",
    );
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      service_id: 'svc_handyman_hour',
      start_time: '2026-12-10T10:00:00-05:00',
    });
  });
});

describe('a time in the sentence after a day ruled out', () => {
  it('"The 16th, not this week. 10am suits." gives the 16th at 10 AM', () => {
    const w = extractWhen('The 16th, not this week. 10am suits.', ctx.now, ctx.timeZone);
    expect(w.date).toMatchObject({ month: 12, day: 16 });
    expect(w.time).toEqual({ hour: 10, minute: 0 });
  });
});
