import { describe, expect, it } from 'vitest';
import { ownRecordQuestion } from './analysis/own-record.js';

describe("questions about the customer's own visits, without 'my'", () => {
  it.each([
    'is tomorrow still happening?? what time am i meant to be in by',
    'remind me what the wall repair on thursday is costing me',
    'what day was the telly man coming again',
  ])('%s → bookings', (message) => {
    expect(ownRecordQuestion(message)).toBe('bookings');
  });

  it.each(['how much does a wall repair cost?', 'is the handyman service available on saturdays?'])(
    '%s → the help centre',
    (message) => {
      expect(ownRecordQuestion(message)).toBeUndefined();
    },
  );
});
