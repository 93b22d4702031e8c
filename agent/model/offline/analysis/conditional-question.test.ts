import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../../../plan-context.js';
import { analyze } from './analyze.js';
import { requestPart } from './cues.js';

const ctx: PlanContext = {
  now: '2025-03-03T15:00:00.000Z',
  timeZone: 'America/New_York',
  customer: null,
  retrieved: [],
  pending: [],
  services: [],
  summary: '',
};

describe('a condition ("if I …") before a question is part of the question, not a request', () => {
  it('reads "if I call off a clean the morning before, what do I pay?" as a question only', () => {
    const text = 'so if i call off a $99 clean the morning before, what do i end up paying?';
    expect(requestPart(text)).toBe('');
    expect(analyze([], ctx, text).bookingWanted).toBe(false);
  });

  it('still reads a request next to a question, and a request with a condition and no question', () => {
    expect(requestPart('clean my oven tomorrow at 9, how much is it?')).toBe('clean my oven tomorrow at 9');
    expect(requestPart('if you have time, clean the oven on friday at 10')).toBe(
      'if you have time clean the oven on friday at 10',
    );
  });
});
