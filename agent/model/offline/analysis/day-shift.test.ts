import { describe, expect, it } from 'vitest';
import { relativeDayShift } from './day-shift.js';

describe('relativeDayShift', () => {
  it('reads a move by whole days, later or earlier', () => {
    expect(relativeDayShift('can you push it back by a day? same time')).toBe(1);
    expect(relativeDayShift('move my cleaning back two days')).toBe(2);
    expect(relativeDayShift('could it be a day later')).toBe(1);
    expect(relativeDayShift('make it two days earlier')).toBe(-2);
    expect(relativeDayShift('bring it forward a day')).toBe(-1);
    expect(relativeDayShift('can we move the clean up a day')).toBe(-1);
    expect(relativeDayShift('push it back a week')).toBe(7);
    expect(relativeDayShift('push it back a couple of days')).toBe(2);
    expect(relativeDayShift('could you push back the window cleaning by two days')).toBe(2);
  });

  it('reads nothing from other uses of the words', () => {
    expect(relativeDayShift('i will be back in a day or two')).toBeUndefined();
    expect(relativeDayShift('push it forward a day')).toBeUndefined();
    expect(relativeDayShift('call me back a day before')).toBeUndefined();
    expect(relativeDayShift('an hour later')).toBeUndefined();
    expect(relativeDayShift('the day after tomorrow')).toBeUndefined();
  });
});
