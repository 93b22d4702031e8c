import { describe, expect, it } from 'vitest';
import { extractPhones, samePhone } from './analysis/entities.js';
import { bookingBesideProblem, bookingSegments, segments } from './analysis/segments.js';
import { extractWhen } from './analysis/when.js';
import { afterLookup, callNames as names, NOW, plan, seedContext, TZ } from './testing.js';

const day = (text: string, anchor?: { year: number; month: number; day: number }) => extractWhen(text, NOW, TZ, anchor);

describe('date reader (chrono extended through its parsers)', () => {
  it('reads "the <weekday> after next" as the coming one plus a week', () => {
    expect(day('the thursday after next at 10am').date).toEqual({ year: 2026, month: 12, day: 17 });
  });
  it('reads "the <weekday> after that" after a day said before it, or after the day under discussion', () => {
    expect(day("this wednesday won't work, the wednesday after that at 1pm").date).toMatchObject({ day: 16 });
    expect(day('the tuesday after that', { year: 2026, month: 12, day: 8 }).date).toMatchObject({ day: 15 });
  });
  it('reads a weekday with a day of the month, and flags a weekday that contradicts it', () => {
    expect(day('thurs 17th at 2pm').date).toMatchObject({ day: 17 });
    expect(day('thurs 17th at 2pm').conflict).toBeUndefined();
    expect(day('monday the 15th at 9am').conflict).toMatchObject({ said: 1, date: { day: 15 } });
    expect(day('thursday december 18 at 10').conflict).toMatchObject({ said: 4 });
  });
  it('maps "first thing" to the first start of that day from the calendar', () => {
    expect(day('first thing wednesday').time).toEqual({ hour: 8, minute: 0 });
    expect(day('first thing saturday').time).toEqual({ hour: 9, minute: 0 });
    expect(day('thursday late morning').time).toBeUndefined();
  });
});

describe('"the <weekday> after that" counts from the day just said, which it replaces', () => {
  it('takes the later day, not the one it is counted from', () => {
    expect(day('thursday the 10th is out, the tuesday after that at 10am').date).toEqual({
      year: 2026,
      month: 12,
      day: 15,
    });
  });
  it('without a day before it or under discussion, stays the next such weekday', () => {
    expect(day('the friday after that at 9am').date).toMatchObject({ day: 11 });
  });
});

const ctx = seedContext();
const changesOf = (text: string) =>
  (plan(ctx, text).calls.find((c) => c.name === 'update_customer')?.args as { changes?: Record<string, unknown> })
    ?.changes;

describe('phone numbers are found and compared by libphonenumber (region US)', () => {
  it('finds numbers as written, in any common format, and not dates, times or postal codes', () => {
    expect(extractPhones('new number 5552019999, or 555.201.8890 at work')).toEqual(['5552019999', '555.201.8890']);
    expect(extractPhones('call me on +44 7700 900123')).toEqual(['+44 7700 900123']);
    expect(extractPhones('9 Birch Rd, Fernbrook MH 2105 on 12/15 at 10am, order 2026-12-07')).toEqual([]);
  });
  it('compares numbers by what they dial, not how they are written', () => {
    expect(samePhone('+1 555 201 3344', '(555) 201-3344')).toBe(true);
    expect(samePhone('555.201.3344', '555-201-3345')).toBe(false);
    expect(samePhone(null, '555-201-3344')).toBe(false);
  });
  it('asks for the whole number when the one given is too short to dial', () => {
    const t = plan(ctx, 'my new number is 201-9999');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/full phone number, including the area code/);
  });
  it('says the number on file is already there, however it is written', () => {
    const t = plan(ctx, 'my phone number is +1 555 201 3344, please update it');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/already the phone number we have on file/);
  });
});

describe('old value vs new value', () => {
  it.each([
    ['please change my phone from (555) 201-3344 to 555-730-1200', '555-730-1200'],
    ['swap 555 730 1200 in instead of my old number 555-201-3344', '555 730 1200'],
    ['555-730-1200 is my new phone, 555-201-9876 is old', '555-730-1200'],
  ])('%s → %s', (text, phone) => {
    expect(changesOf(text)).toEqual({ phone });
  });
  it('takes the address not on file as the new email', () => {
    expect(changesOf('update my email from maria.gonzalez@example.com to m.gonzalez@example.net')).toEqual({
      email: 'm.gonzalez@example.net',
    });
  });
});

describe('evidence required: no write without a request in the customer’s words', () => {
  it.each([
    ['a question about how we contact people', 'do your technicians call or text when they are on the way?'],
    ['a question that mentions pets', 'we have a dog, will the cleaners be ok with that?'],
    ['a question about times of day', 'are afternoons less busy?'],
  ])('%s: %s', (_label, text) => {
    expect(names(plan(ctx, text)).filter((n) => n === 'update_customer')).toEqual([]);
  });
  it('a note asked for is a note, not a preference', () => {
    // A note added keeps the notes on file, so it is written once the record is looked up (none on file here).
    const t = afterLookup(ctx, 'please add a note to my account that the dog is shy', []);
    expect(t.calls.find((c) => c.name === 'update_customer')?.args.changes).toEqual({ notes: 'The dog is shy' });
  });
  it("someone else's email is refused, and changes nothing on the customer's own record", () => {
    const t = plan(ctx, 'can you email my accountant at books@example.org the last invoice');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/only send emails to the address on your account/);
  });
  it("someone else's phone number is not taken as the customer's new number", () => {
    expect(changesOf("my husband's phone is 555-730-1200 if you can't reach me")).toBeUndefined();
  });
});

describe('indirect questions about their own bookings are lookups', () => {
  it.each([
    'just checking my cleaning is still on for friday?',
    'Did my booking for the 9th go through?',
    'is my appointment still happening tomorrow',
    'when is the handyman guy coming?',
  ])('%s', (text) => {
    expect(names(plan(ctx, text))).toEqual(['lookup_customer']);
  });
  it('a question about how visits usually go is not a lookup', () => {
    expect(names(plan(ctx, 'when do your cleaners usually arrive, first thing?'))).toEqual([]);
  });
});

describe('segments: several requests in one message, each read on its own', () => {
  it('splits sentences and clauses that start a new request', () => {
    expect(segments('book a deep clean friday at 9am and a tv mount saturday at 10am. thanks!')).toEqual([
      'book a deep clean friday at 9am',
      'a tv mount saturday at 10am.',
      'thanks!',
    ]);
    expect(segments('separately, I want the windows done saturday')).toEqual(['I want the windows done saturday']);
  });
  it('gives one booking per segment with its own service and day', () => {
    const got = bookingSegments('book a deep clean friday at 9am and a tv mount saturday at 10am', ctx).map((b) => [
      b.service.id,
      b.when.date?.day,
      b.when.time?.hour,
    ]);
    expect(got).toEqual([
      ['svc_deep_clean', 11, 9],
      ['svc_tv_mount', 12, 10],
    ]);
  });
  it('proposes both bookings of a two-booking message', () => {
    const t = plan(ctx, 'book a deep clean friday at 9am and a tv mount saturday at 10am');
    expect(t.calls.map((c) => [c.name, c.args.service_id, c.args.start_time])).toEqual([
      ['book_slot', 'svc_deep_clean', '2026-12-11T09:00:00-05:00'],
      ['book_slot', 'svc_tv_mount', '2026-12-12T10:00:00-05:00'],
    ]);
  });
  it('a booking beside a reported problem is proposed with the ticket', () => {
    expect(bookingBesideProblem('the cleaner broke a vase last week. also book a tv mount saturday at 10am', ctx)).toBe(
      'book a tv mount saturday at 10am',
    );
    expect(bookingBesideProblem('the cleaner broke a vase last week, it was expensive', ctx)).toBeUndefined();
  });
});
