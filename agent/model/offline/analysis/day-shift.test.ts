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

  it('reads a day asked for as the booking being another one: "could it be", "instead"', () => {
    expect(relativeDayShift('the fan install on the 15th, could it be the day before instead? same time')).toBe(-1);
    expect(relativeDayShift('would that be possible, could it be the day after')).toBe(1);
    expect(relativeDayShift('can this be two days before')).toBe(-2);
    expect(relativeDayShift('my window clean on friday, the day before instead please')).toBe(-1);
    expect(relativeDayShift('the week after instead works better')).toBe(7);
    // Nothing asks for the booking to be on that day.
    expect(relativeDayShift('could they call me the day before?')).toBeUndefined();
    expect(relativeDayShift('it could be the dog, he barks the day before a visit')).toBeUndefined();
    expect(relativeDayShift('will it be cheaper the day before')).toBeUndefined();
    expect(relativeDayShift('could it be done by the day before the party')).toBeUndefined();
  });
});
