// Building an Intl.DateTimeFormat costs far more than using one (about half a millisecond here),
// and cards, prompts and tool results format times in one zone all day: one formatter per zone.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatInZone, isoInZone, localParts, zonedTime } from './time.js';

afterEach(() => vi.restoreAllMocks());

describe('time formatters are built once per zone', () => {
  it('formats again in a zone without building another Intl.DateTimeFormat', () => {
    const tz = 'America/Chicago';
    const at = new Date('2026-12-07T15:00:00Z');
    const first = [
      formatInZone(at, tz),
      isoInZone(at, tz),
      localParts(at, tz),
      zonedTime({ year: 2026, month: 12, day: 8, hour: 9 }, tz),
    ];
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    const again = [
      formatInZone(at, tz),
      isoInZone(at, tz),
      localParts(at, tz),
      zonedTime({ year: 2026, month: 12, day: 8, hour: 9 }, tz),
    ];
    expect(built).not.toHaveBeenCalled();
    built.mockRestore();
    expect(again).toEqual(first);
    expect(isoInZone(at, 'Asia/Tokyo')).toBe('2026-12-08T00:00:00+09:00');
  });
});
