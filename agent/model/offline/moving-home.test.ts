import { describe, expect, it } from 'vitest';
import { feeQuestionOf } from './analysis/booking-change.js';

// Moving home is not moving a booking: a question about what a move to another town costs is the service
// area's surcharge, not the fee for moving a visit.

describe('a fee question about moving home is not about moving a booking', () => {
  it.each([
    'random q, if we ended up moving out to the suburbs next year would my cleanings cost more? not moving yet',
    'if we moved to fernbrook would the visits cost more?',
    'thinking of moving house, is there a surcharge for the far side of the river?',
    'if we relocate next spring do prices change?',
  ])('not a move of a visit: %s', (text) => {
    expect(feeQuestionOf(text)).toBeUndefined();
  });

  it.each([
    'is there a fee if I move it to friday?',
    'what does it cost to move my booking to next week?',
    'what would it cost to move to tuesday?',
    "we're moving house next month, is there a fee to move my cleaning to the 20th?",
    'would i pay anything for moving the appointment to a later slot?',
  ])('a move of a visit: %s', (text) => {
    expect(feeQuestionOf(text)).toBe('reschedule');
  });
});
