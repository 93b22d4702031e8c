// Slack's date and time pickers hold wall-clock values; the tools want ISO 8601 with the business
// offset. Both ways, across daylight-saving changes.
import { describe, expect, it } from 'vitest';
import { isoFromPickers, pickerValues } from './date-time-fields.js';

const NY = 'America/New_York';

describe('date and time pickers ↔ ISO 8601 in the business time zone', () => {
  it('shows a proposed time as the business reads it, whatever offset it was written with', () => {
    expect(pickerValues('2026-12-08T10:00:00-05:00', NY)).toEqual({ date: '2026-12-08', time: '10:00' });
    expect(pickerValues('2026-12-08T15:00:00.000Z', NY)).toEqual({ date: '2026-12-08', time: '10:00' });
    // Late evening in UTC is still the previous day here.
    expect(pickerValues('2026-12-09T02:30:00Z', NY)).toEqual({ date: '2026-12-08', time: '21:30' });
    expect(pickerValues('2026-07-01T09:00:00-04:00', 'Europe/Berlin')).toEqual({ date: '2026-07-01', time: '15:00' });
    expect(pickerValues('not a time', NY)).toBeUndefined();
  });

  it('turns the picked day and time back into ISO with the offset of that day', () => {
    expect(isoFromPickers('2026-12-08', '10:00', NY)).toBe('2026-12-08T10:00:00-05:00');
    expect(isoFromPickers('2026-07-08', '10:00', NY)).toBe('2026-07-08T10:00:00-04:00');
    // 2027-03-14: clocks go forward at 02:00. The day before is EST, the day itself EDT from 03:00.
    expect(isoFromPickers('2027-03-13', '10:00', NY)).toBe('2027-03-13T10:00:00-05:00');
    expect(isoFromPickers('2027-03-14', '10:00', NY)).toBe('2027-03-14T10:00:00-04:00');
    expect(isoFromPickers('2027-03-14', '01:30', NY)).toBe('2027-03-14T01:30:00-05:00');
    expect(isoFromPickers('2027-03-14', '03:00', NY)).toBe('2027-03-14T03:00:00-04:00');
    // 2026-11-01: clocks go back at 02:00.
    expect(isoFromPickers('2026-10-31', '09:00', NY)).toBe('2026-10-31T09:00:00-04:00');
    expect(isoFromPickers('2026-11-01', '09:00', NY)).toBe('2026-11-01T09:00:00-05:00');
    for (const iso of ['2027-03-14T10:00:00-04:00', '2026-11-01T09:00:00-05:00', '2026-12-31T17:00:00-05:00']) {
      const v = pickerValues(iso, NY)!;
      expect(isoFromPickers(v.date, v.time, NY)).toBe(iso);
    }
  });

  it('refuses a time the clocks skip, and anything that is not a picker value', () => {
    expect(isoFromPickers('2027-03-14', '02:30', NY)).toBeUndefined();
    expect(isoFromPickers('2026-02-30', '10:00', NY)).toBeUndefined();
    expect(isoFromPickers('2026-12-08', '24:00', NY)).toBeUndefined();
    expect(isoFromPickers('12/08/2026', '10:00', NY)).toBeUndefined();
    expect(isoFromPickers('2026-12-08', '10am', NY)).toBeUndefined();
  });
});
