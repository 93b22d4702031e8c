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

describe('whether a detail of theirs reached us', () => {
  it.each([
    'did u get my address? i sent it last week i think',
    'have you got my new number yet',
    'hey did you guys receive my updated email address',
    'ok so have ya got my phone number now',
  ])('%s → contact', (message) => {
    expect(ownRecordQuestion(message)).toBe('contact');
  });

  it.each([
    // a message sent, not the address on file
    'did you get my email about the leak?',
    'did u get my message from this morning',
    // a change, not a question
    'did you get my address? its 14 elm st now, please update it',
    // about the business
    'do you have an address i can post a cheque to?',
  ])('%s → not a question about their record', (message) => {
    expect(ownRecordQuestion(message)).not.toBe('contact');
  });
});

describe('whether a visit or a plan still stands, or which day it is', () => {
  it.each([
    'am i still down for thursday or did that get bumped',
    'is the wall patching next wed or thurs? and what time, ive got a call at 9',
    'wait is the cleaning tomorrow or wednesday?? brain is fried',
    'am i still on the weekly cleans or did that get switched to every 2 weeks at some point?',
    'are we still booked in for the 15th?',
  ])('%s → bookings', (message) => {
    expect(ownRecordQuestion(message)).toBe('bookings');
  });

  it.each([
    'is the window cleaning done on weekdays or saturdays?',
    'are you still open on saturdays?',
    'is a deep clean better in the morning or afternoon?',
  ])('%s → the help centre', (message) => {
    expect(ownRecordQuestion(message)).toBeUndefined();
  });
});

describe('whether a change of theirs reached the record', () => {
  it.each([
    'did my new number ever make it onto my account? it ends in 9921',
    'did the email change go thru? should be bobkowalski58@example.net now',
    'has my address update gone through yet',
  ])('%s → contact', (message) => {
    expect(ownRecordQuestion(message)).toBe('contact');
  });

  it.each([
    'how long does an email change take to go through?',
    'change my email to bob@example.net, did that go through last time?',
  ])('%s → not only a question about their record', (message) => {
    expect(ownRecordQuestion(message)).toBeUndefined();
  });
});
