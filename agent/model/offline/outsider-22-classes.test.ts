import { describe, expect, it } from 'vitest';
import { detectCues } from './analysis/cues.js';
import { extractAccessNote, reportsProblem, triage } from './analysis/entities.js';
import { expandShorthand } from './analysis/shorthand.js';
import { lookupFound, makeContext, plan, SEED_SERVICES, seedContext, writeNames } from './testing.js';
import { lookupText } from './replies/templates.js';

// Failures of a blind set (evals/open/outsider-22-SCENARIOS.md), as classes: work of ours that failed, said with
// "u" and "ur"; a burning smell and a screen gone black; a bathroom not touched on "saturdays clean"; two charges
// and a fee charged "but" not owed; whether the oven was part of it at all; the price or the end of their own visit;
// a visit called off in a case asked about; "rather than cancel"; where the dog crate is now.

const ctx = seedContext();

describe('tickets', () => {
  it.each([
    [
      'the thermostat u put in for me in november is giving off a burning plastic smell and the screen has gone ' +
        'black. ive switched the heating off',
      'urgent',
    ],
    ['the shelves ur handyman put up about 2 weeks ago, one of them is coming away from the wall now', undefined],
    [
      'saturdays clean - the upstairs bathroom wasnt touched at all, towels still on the floor and the bin full',
      undefined,
    ],
    [
      'my bank shows two charges of $165 from brightwell on the same day in november, but it was only the one ' +
        'drywall job. pls sort',
      undefined,
    ],
    [
      "got charged $47.50 for cancelling my handyman visit but i cancelled it like 4 days before?? that's not right",
      undefined,
    ],
  ])('%s', (text, priority) => {
    const t = plan(ctx, text);
    const ticket = t.calls.find((c) => c.name === 'create_ticket');
    expect(ticket).toBeDefined();
    if (priority) expect(ticket!.args.priority).toBe(priority);
  });

  it('two charges are a billing issue', () => {
    expect(triage('my bank shows two charges of $165 on the same day').category).toBe('billing');
  });

  it('"u" and "ur" are the company spoken to; "ur welcome" is not "your welcome"', () => {
    expect(expandShorthand('the tap u fixed, ur handyman')).toBe('the tap you fixed, your handyman');
    expect(expandShorthand('ur welcome')).toBe('ur welcome');
  });

  it('whether the work was owed is asked, not reported', () => {
    const text = 'bit disappointed the inside of the oven wasnt done on my regular clean. or is that not part of it?';
    expect(reportsProblem(text)).toBe(true);
    expect(writeNames(plan(ctx, text))).toEqual([]);
  });
});

describe('their own visit', () => {
  it.each([
    "thursdays tv job, what's that gonna set me back?",
    'roughly what time will the cleaners be finished on the 18th? got to head out later that afternoon',
  ])('%s is looked up', (text) => {
    expect(detectCues(text).lookup).toBe('bookings');
  });

  it('a price list question is not', () => {
    expect(detectCues('how much is a deep clean?').lookup).toBeUndefined();
  });

  it('the bookings listed say when each visit ends', () => {
    const found = lookupFound([
      {
        id: 'BKG-1017',
        service_id: 'svc_standard_clean',
        service_name: 'Standard Home Cleaning',
        starts_at: '2026-12-18T14:00:00-05:00',
      },
    ]);
    expect(lookupText(found, 'bookings', makeContext({ services: SEED_SERVICES }))).toContain('until about 5:00 PM');
  });
});

describe('no cancellation asked for', () => {
  it.each([
    'my youngest is always picking up bugs from nursery. if hes sick on the morning of a visit and we have to call ' +
      'it off are we stuck paying?',
    "we're off to my daughter's for a good while over the holidays. rather than cancel the weekly cleans " +
      'altogether how long can you pause them for?',
  ])('%s', (text) => {
    const t = plan(ctx, text);
    expect(writeNames(t)).toEqual([]);
    expect(detectCues(text).withdraw).toBe(false);
  });
});

describe('notes', () => {
  it('where something is now, with the record asked to follow', () => {
    expect(extractAccessNote('fyi the dog crate is in the garage now not the laundry room, can u update that')).toMatch(
      /garage/,
    );
    expect(extractAccessNote('the dog crate is in the garage now')).toBeUndefined();
  });
});
