import { describe, expect, it } from 'vitest';
import { detectCues } from './analysis/cues.js';
import { retraction } from './analysis/retraction.js';
import { matchServices } from './analysis/services.js';
import { bareHourAnswer, extractWhen } from './analysis/when.js';
import { ARTICLES, makeContext, NOW, pendingBooking, plan, planMessage, SEED_SERVICES, TZ } from './testing.js';

// Requests taken back (in the same message or the next), days offered as alternatives or contradicting
// their weekday, and short answers to our own booking questions.

const ctx = makeContext({ services: SEED_SERVICES });
const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);
const asks = (t: { content: string; calls: unknown[] }) => t.calls.length === 0 && /\?/.test(t.content);

describe('a request taken back in the same message asks for nothing', () => {
  it('finds the retraction standing as a clause of its own, not "keep it at 9"', () => {
    expect(retraction('book a window clean friday at 10. actually hold off, need to check with my wife')).toEqual({
      before: 'book a window clean friday at 10. actually',
      after: 'need to check with my wife',
    });
    expect(retraction('move my cleaning to friday but keep it at 9')).toBeUndefined();
    expect(retraction('never mind, book a deep clean friday at 10')).toBeUndefined();
  });
  it('an email change, then "forget it, keep the old one"', () => {
    const t = plan(ctx, 'please change my email to maria.work@example.com - no forget it, keep the old one');
    expect(names(t)).toEqual([]);
    expect(t.content).toMatch(/nothing will change/);
  });
  it('a booking, then "actually hold off, ill get back to u"', () => {
    const t = plan(ctx, 'can you book a standard clean for wed the 16th at 10... actually hold off. ill get back to u');
    expect(names(t)).toEqual([]);
  });
  it('a cancellation, then "keep it!!"', () => {
    const t = plan(ctx, "cancel friday's cleaning please - wait, my sister is coming friday after all. keep it!!");
    expect(names(t)).toEqual([]);
  });
  it('a request after the retraction is still planned', () => {
    const t = plan(ctx, 'book a deep clean thursday at 10. scratch that, make it a standard clean thursday at 10');
    expect(names(t)).toEqual(['book_slot']);
    expect(t.calls[0]!.args.service_id).toBe('svc_standard_clean');
  });
});

describe('a pending request taken back in loose words', () => {
  it('"forget the tv thing", "drop it", "leave it how it was" withdraw', () => {
    for (const text of ['forget the window thing, drop it pls', 'hmm actually leave it how it was', 'drop it'])
      expect(detectCues(text).withdraw).toBe(true);
    const t = plan(makeContext({ services: SEED_SERVICES, pending: [pendingBooking()] }), 'ugh forget the clean thing');
    expect(names(t)).toEqual(['withdraw_request']);
  });
});

describe('which day: alternatives and a weekday that contradicts the date', () => {
  it('"thursday at 10 - or friday at 10" is asked about, and the next answer books', () => {
    const first = 'handyman hour thursday at 10 - or friday at 10, cant decide';
    expect(extractWhen(first, NOW, TZ).alternatives).toHaveLength(2);
    const t = plan(ctx, first);
    expect(asks(t)).toBe(true);
    expect(t.content).toMatch(/Thu, Dec 10 or Fri, Dec 11/);
    const next = plan(ctx, first, planMessage(ctx, first), 'friday then');
    expect(next.calls[0]?.args).toMatchObject({
      service_id: 'svc_handyman_hour',
      start_time: '2026-12-11T10:00:00-05:00',
    });
  });
  it('"wednesday or thursday" alone is not a conflict when said as one day', () => {
    expect(extractWhen('deep clean thursday at 10', NOW, TZ).alternatives).toBeUndefined();
  });
  it('a weekday that contradicts the date offers both days by date', () => {
    const t = plan(ctx, 'deep clean thursday the 16th at 9 please');
    expect(t.content).toMatch(/Dec 16 is a Wed, not a Thursday/);
    expect(t.content).toMatch(/Wed, Dec 16, or Thu, Dec 17\?/);
    expect(plan(ctx, 'tv mounting fri 12th at 1').content).toMatch(/Sat, Dec 12, or Fri, Dec 11\?/);
  });
});

describe('short answers to our own booking questions', () => {
  it('a start after closing is asked about before anything is proposed, and "ok 4 then" books 4 PM', () => {
    const first = 'faucet repair thursday at 7:30pm?';
    const t = plan(ctx, first);
    expect(names(t)).toEqual([]);
    expect(t.content).toMatch(/isn't possible/);
    const next = plan(ctx, first, planMessage(ctx, first), 'ugh ok 4 then');
    expect(next.calls[0]?.args).toMatchObject({ start_time: '2026-12-10T16:00:00-05:00' });
  });
  it('a bare hour is read only in a short answer with one number', () => {
    expect(bareHourAnswer('ok 4 then')).toEqual({ time: { hour: 16, minute: 0 } });
    expect(bareHourAnswer('3 or 4')).toBeUndefined();
    expect(bareHourAnswer('i have 2 dogs and a cat who hate strangers')).toBeUndefined();
  });
  it('"next week" said first, a weekday next: that weekday of next week', () => {
    const first = 'can i get a ceiling fan put up next week?';
    const next = plan(ctx, first, planMessage(ctx, first), 'wednesday at 1pm');
    expect(next.calls[0]?.args).toMatchObject({ start_time: '2026-12-16T13:00:00-05:00' });
  });
});

describe('what is only reported or asked about is not a request', () => {
  it('"does that mean you\'ll email me?" asks what happens, and "keep getting texts" keeps what is on file', () => {
    expect(detectCues("does that mean you'll email me now?").sendEmail).toBe(false);
    expect(detectCues('email me the details please').sendEmail).toBe(true);
    const t = plan(ctx, "i'd rather keep getting the text reminders honestly");
    expect(names(t)).not.toContain('update_customer');
  });
  it('"is it still on?" and "anything still in the calendar for me" look the bookings up', () => {
    expect(detectCues('i never cancelled anything. is it still on?').lookup).toBe('bookings');
    expect(detectCues('can u check theres nothing still sitting in the calendar for me').lookup).toBe('bookings');
    expect(detectCues('do i actually have anything booked with you?').lookup).toBe('bookings');
    expect(detectCues('i just want to know when the window man is coming').lookup).toBe('bookings');
  });
});

describe('keeping what is on file', () => {
  it('"texts keep getting buried" is no wish to keep them', () => {
    const t = plan(ctx, 'texts from you keep getting buried, could you contact me by email instead from now on');
    expect(t.calls[0]?.args.changes).toEqual({ preferences: { contact: 'email' } });
  });
});

describe('which service: asked, never picked', () => {
  it('a kind of service with a day, a time and a please, and a question about the kinds', () => {
    const t = plan(ctx, 'friday the 18th at 10 for a clean please. what is the difference between them?');
    expect(asks(t)).toBe(true);
    expect(t.content).toMatch(/which service/);
  });
  it('two jobs described, each fixed by another service: both offered', () => {
    const t = plan(ctx, 'can someone sort out the kitchen wed 16th at 10? limescale everywhere and the tap drips too');
    expect(names(t)).toEqual([]);
    expect(t.content).toMatch(/Deep Cleaning/);
    expect(t.content).toMatch(/Faucet Repair/);
    expect(names(plan(ctx, 'can someone fix my dripping tap wed 16th at 10?'))).toEqual(['book_slot']);
  });
});

describe('contradictory and aside mentions of the record', () => {
  it('calls for everything but reminders by email: one preference covers both, so it is asked', () => {
    const t = plan(ctx, 'switch my contact preference to texts please, but keep sending reminders by email');
    expect(names(t)).toEqual([]);
    expect(t.content).toMatch(/text messages or email\?/);
    expect(names(plan(ctx, 'please switch my contact preference to texts'))).toEqual(['update_customer']);
  });
  it('a pet mentioned before "anyway my actual question" is an aside', () => {
    const t = plan(ctx, 'we got a kitten last week!! anyway my actual question: do you bring your own vacuum?');
    expect(names(t)).not.toContain('update_customer');
  });
  it('a booking made by phone is reported, not asked for again', () => {
    const t = plan(ctx, 'called your office and booked a window clean for next tuesday, just so you know');
    expect(names(t)).not.toContain('book_slot');
  });
  it('the number asked for, given in the next message, is the update', () => {
    const first = 'i would like to add a mobile number to my account';
    const t = plan(makeContext({ services: SEED_SERVICES, customer: { ...ctx.customer!, phone: null } }), first);
    expect(t.content).toMatch(/What phone number should we have on your account\?/);
    const c = makeContext({ services: SEED_SERVICES, customer: { ...ctx.customer!, phone: null } });
    const next = plan(c, first, planMessage(c, first), 'oh right, 555-201-9898');
    expect(next.calls[0]?.args.changes).toEqual({ phone: '555-201-9898' });
  });
  it('"i need to change the window cleaning" changes the booking they have', () => {
    const t = plan(ctx, 'i need to change the window cleaning, something came up that afternoon');
    expect(names(t)).toEqual(['lookup_customer']);
  });
});

describe('a correction is not a retraction', () => {
  it('"actually no, …" with a new value, and "keep it at 9"', () => {
    expect(retraction('change my phone to 555-201-1111, actually no, 555-201-2222')).toBeUndefined();
    expect(names(plan(ctx, 'move my cleaning to friday but keep it at 9 please'))).not.toEqual([]);
  });
});

describe('several questions in one message', () => {
  it('a plural names the service, and its price is given beside an article about another part', () => {
    expect(matchServices('do you mount tvs?', SEED_SERVICES).matches.map((s) => s.id)).toEqual(['svc_tv_mount']);
    const unlinked = makeContext({ services: SEED_SERVICES, customer: null, retrieved: [ARTICLES.saturdays] });
    const t = plan(unlinked, 'do you guys mount tvs? how much is that, and what are your saturday hours?');
    expect(t.content).toMatch(/\$159/);
    expect(t.content).toMatch(/9:00 a\.m\. to 2:00 p\.m\./);
  });
});

describe('a channel kept as it is', () => {
  it('"i\'d rather keep getting the text links" changes nothing, and says so', () => {
    const t = plan(ctx, "i'd rather keep getting the text links honestly, i never check email");
    expect(names(t)).toEqual([]);
    expect(t.content).toMatch(/keep getting text links/);
  });
});
