import { describe, expect, it } from 'vitest';
import { changeCues, feeQuestionOf } from './analysis/booking-change.js';
import { isInformationQuestion } from './analysis/cues.js';
import { extractPreferences } from './analysis/entities.js';
import { matchServices } from './analysis/services.js';
import { extractWhen } from './analysis/when.js';
import { callNames, NOW, plan, seedContext, TZ } from './testing.js';

// Failures of a blind set (evals/open/outsider-19-SCENARIOS.md), as classes: a visit asked for as "send ur window
// people round", a time said "at 13h", a "heating controller", a part of the day that "suits me much better", a
// booking "shoved back a week", a visit not needed ("bin it"), a fee asked with "if I moved", and a question led
// by "roughly".

const ctx = seedContext();

describe('plainly asked', () => {
  it('hey could u send ur window people round to mine thursday the 10th, nine in the morning works', () => {
    const t = plan(ctx, 'hey could u send ur window people round to mine thursday the 10th, nine in the morning works');
    expect(t.calls.find((c) => c.name === 'book_slot')?.args).toMatchObject({
      service_id: 'svc_window_clean',
      start_time: '2026-12-10T09:00:00-05:00',
    });
  });

  it('a time said "at 13h" and a "heating controller"', () => {
    expect(extractWhen('install it on monday 14 at 13h', NOW, TZ)).toMatchObject({
      date: { year: 2026, month: 12, day: 14 },
      time: { hour: 13, minute: 0 },
    });
    expect(matchServices('I have buy a new heating controller, the smart one', ctx.services).matches[0]?.id).toBe(
      'svc_smart_thermostat_install',
    );
  });

  it('weekday mornings suit me much better than saturdays now', () => {
    expect(
      extractPreferences('my schedule changed, weekday mornings suit me much better than saturdays now'),
    ).toMatchObject({
      preferred_time: 'mornings',
    });
  });

  it.each([
    ['Could you shove the fan installation back a week please? Same time is fine.', { move: true }],
    ['dont need the windows done tmrw after all, bin it pls', { cancel: true }],
  ])('%s', (text, cues) => {
    expect(changeCues(text)).toMatchObject(cues);
  });
});

describe('questions', () => {
  it('a fee asked with "if I moved"', () => {
    expect(
      feeQuestionOf(
        'Just wondering, if I moved my wednesday handyman visit to the afternoon would that cost me anything?',
      ),
    ).toBe('reschedule');
  });

  it('a question led by "roughly"', () => {
    expect(isInformationQuestion('roughly how much is the handyman thing on the 15th gonna run me')).toBe(true);
    expect(callNames(plan(ctx, 'roughly how much is the handyman thing on the 15th gonna run me'))).not.toContain(
      'book_slot',
    );
  });
});
