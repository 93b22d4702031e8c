import { describe, expect, it } from 'vitest';
import { detectCues } from './cues.js';
import { extractWhen } from './when.js';

const NOW = '2026-12-07T14:00:00.000Z';
const TZ = 'America/New_York';

describe('a booking the customer will make later asks for none now', () => {
  it.each([
    'can u email me the prices, want to show the wife before we book',
    "send me the details, i'll decide once we've booked the flights",
    'what does a deep clean include? asking before booking',
    "i'll let you know when i schedule",
  ])('%s', (text) => {
    expect(detectCues(text).book.strong).toBe(false);
  });
  it.each([
    'book a deep clean before we move in',
    'can you book it before we leave on friday',
    'please schedule a visit, when we book can we pay by card',
    'book me in for friday at 10 before we book the flights',
  ])('still a booking: %s', (text) => {
    expect(detectCues(text).book.strong).toBe(true);
  });
});

describe('our opening hours asked about ask for no slot', () => {
  it('"opening hours" is not "any openings"', () => {
    expect(detectCues('pls email me the deep clean price & your opening hours').book.weak).toBe(false);
    expect(detectCues('what are your opening times').book.weak).toBe(false);
    expect(detectCues('any openings friday afternoon?').book.weak).toBe(true);
    expect(detectCues('is there an opening on the 14th').book.weak).toBe(true);
  });
});

describe('a weekday said of our hours is not a day asked for', () => {
  it.each(['email me your saturday hours', "what are saturday's opening hours", 'your weekend hours?'])(
    '%s',
    (text) => {
      expect(extractWhen(text, NOW, TZ).date).toBeUndefined();
    },
  );
  it.each([
    ['saturday at 10 please', 12],
    ['book a clean saturday, what are your saturday hours btw', 12],
    ['friday for 2 hours', 11],
  ])('still a day: %s', (text, day) => {
    expect(extractWhen(text as string, NOW, TZ).date?.day).toBe(day);
  });
});
