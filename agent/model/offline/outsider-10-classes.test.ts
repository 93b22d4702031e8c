import { describe, expect, it } from 'vitest';
import { extractWhen } from './analysis/when.js';
import { changeCues } from './analysis/booking-change.js';
import { crewInstruction, extractNameChange } from './analysis/entities.js';
import { explainError } from './replies/templates.js';
import { callNames, NOW, plan, seedContext, TZ } from './testing.js';

// Failures of a blind set, as classes: the day a request is for when the message names two, water that has
// stopped, something done over the phone, a request taken back with "ignore me", a leak booked by its day
// and time, and a booking moved by "instead of" or "be later".

const ctx = seedContext();
const TAKEN_BACK =
  'can u book windows fri the 11th at 10... oh wait my husband already booked it by phone, ignore me 🤦‍♀️';
const writes = (text: string) =>
  callNames(plan(ctx, text)).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

describe('the day asked for is the one its time goes with', () => {
  it('"tenants leave on the 24th so can i get a clean on the 25th at 9" is the 25th', () => {
    const w = extractWhen('tenants leave on the 24th so can i get a move out clean on the 25th at 9?', NOW, TZ);
    expect(w.date).toEqual({ year: 2026, month: 12, day: 25 });
  });

  it('one day named is that day', () => {
    expect(extractWhen('a clean on the 15th please', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 15 });
  });
});

describe('no write the words do not ask for', () => {
  it.each([
    ['cancel the faucet visit on the 21st, the leak stopped by itself lol', 'create_ticket'],
    [
      'can u book windows fri the 11th at 10... oh wait my husband already booked it by phone, ignore me 🤦‍♀️',
      'book_slot',
    ],
    [
      'can u book windows fri the 11th at 10... oh wait my husband already booked it by phone, ignore me 🤦‍♀️',
      'update_customer',
    ],
    ['kitchen faucet leaks, someone after lunch on tue 15th?', 'create_ticket'],
  ])('%s: no %s', (text, tool) => {
    expect(writes(text)).not.toContain(tool);
  });

  it('a leak still going is still reported', () => {
    expect(writes('water is leaking everywhere from under the sink right now')).toContain('create_ticket');
  });
});

describe('a booking they have, moved', () => {
  it.each([
    'for my tv mount on the 16th can we do 10am instead of 2pm, same day',
    'can my faucet repair wed be later in the day? like 3',
    'could my cleaning on the 14th be a bit earlier',
  ])('is a move, not a new booking: %s', (text) => {
    expect(changeCues(text).move).toBe(true);
    expect(writes(text)).not.toContain('book_slot');
  });

  it('"instead of" a service is no move of the time', () => {
    expect(changeCues('can i book a deep clean instead of a standard one friday at 10').move).toBe(false);
  });
});

describe('record changes typed in chat', () => {
  it.each([
    ['got married 🎉 name is now rachel goldberg-stein and my email is r@example.com', 'Rachel Goldberg-Stein'],
    ['change my name to Ann Lopez please', 'Ann Lopez'],
    ['my name is Ann Lopez now', 'Ann Lopez'],
  ])('a new name in lower case or not: %s', (text, name) => {
    expect(extractNameChange(text)).toBe(name);
  });

  it('"my name is now on the lease" names no name', () => {
    expect(extractNameChange('my name is now on the lease')).toBeUndefined();
  });

  it.each([
    ['can u let the crew know to park in the driveway now, not on the street', 'Let the crew know to park'],
    ['new cell 555-201-9031. oh and doorbell is broken so tell them to knock', 'Doorbell is broken so tell them'],
  ])('an instruction for the crew is a note: %s', (text, note) => {
    expect(crewInstruction(text)).toContain(note);
  });

  it('asking whether to tell them is no note', () => {
    expect(crewInstruction('is it weird to ask the tech to wear a mask')).toBeUndefined();
    expect(writes('my wife is pregnant.. is it weird to ask the tech to wear a mask')).toEqual([]);
  });

  it('a broken doorbell told as the reason for an instruction reports nothing', () => {
    expect(writes('new cell 555-201-9031. oh and doorbell is broken so tell them to knock')).not.toContain(
      'create_ticket',
    );
  });
});

describe('a retraction that names what it takes back', () => {
  it('leaves the other request standing', () => {
    const text =
      'change my phone to 555-201-7999 and book a move out clean thu 17th 8am. ' +
      'actually nvm the phone, keep the old one';
    expect(writes(text)).toEqual(['book_slot']);
  });

  it('one that names nothing takes back everything', () => {
    const text = 'change my phone to 555-201-7999 and book a move out clean thu 17th 8am. actually never mind';
    expect(writes(text)).toEqual([]);
  });
});

describe('a refused start on a public holiday', () => {
  it('says the day is closed, by name', () => {
    const call = {
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-1', new_start_time: '2026-12-25T14:00:00-05:00' },
    };
    const e = explainError(call, { code: 'outside_business_hours', message: 'closed' }, ctx);
    expect(e.text).toMatch(/closed on Christmas Day \(Fri, Dec 25\)/);
  });

  it('an hour outside the day’s hours is still outside our visit hours', () => {
    const call = { name: 'book_slot', args: { service_id: 'svc_deep_clean', start_time: '2026-12-10T19:00:00-05:00' } };
    expect(explainError(call, { code: 'outside_business_hours' }, ctx).text).toMatch(/outside our visit hours/);
  });
});
