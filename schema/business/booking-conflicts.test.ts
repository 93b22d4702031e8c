import { describe, expect, it } from 'vitest';
import { bookingConflicts, DUPLICATE_SERVICE_WINDOW_DAYS, visitEnd } from './booking-conflicts.js';

const at = (iso: string) => new Date(iso);
const booking = (id: string, service_id: string, start: string, hours: number) => ({
  id,
  service_id,
  starts_at: at(start),
  ends_at: new Date(at(start).getTime() + hours * 3_600_000),
});

describe('booking conflicts', () => {
  const deep = booking('BKG-1', 'svc_deep_clean', '2026-12-08T15:00:00Z', 4);
  const windows = booking('BKG-2', 'svc_window_clean', '2026-12-09T16:00:00Z', 2);

  it('the same service within the window is a likely duplicate; outside it is not', () => {
    const wed = {
      service_id: 'svc_deep_clean',
      starts_at: at('2026-12-09T15:00:00Z'),
      ends_at: at('2026-12-09T19:00:00Z'),
    };
    expect(bookingConflicts(wed, [deep])).toEqual([{ booking: deep, overlaps: false, sameService: true }]);
    const later = new Date(deep.starts_at.getTime() + DUPLICATE_SERVICE_WINDOW_DAYS * 86_400_000);
    expect(bookingConflicts({ ...wed, starts_at: later, ends_at: visitEnd(later, 240) }, [deep])).toEqual([]);
  });

  it('any overlapping visit is flagged; touching end to start is not an overlap', () => {
    const start = at('2026-12-09T14:00:00Z');
    expect(
      bookingConflicts({ service_id: 'svc_deep_clean', starts_at: start, ends_at: visitEnd(start, 240) }, [windows]),
    ).toEqual([{ booking: windows, overlaps: true, sameService: false }]);
    const before = at('2026-12-09T14:00:00Z');
    expect(
      bookingConflicts({ service_id: 'svc_tv_mount', starts_at: before, ends_at: visitEnd(before, 90) }, [windows]),
    ).toEqual([]);
  });

  it('a booking being moved is not its own duplicate', () => {
    const moved = at('2026-12-08T16:00:00Z');
    expect(
      bookingConflicts(
        { service_id: 'svc_deep_clean', starts_at: moved, ends_at: visitEnd(moved, 240), replaces: 'BKG-1' },
        [deep],
      ),
    ).toEqual([]);
  });

  it('visits hold whole hours', () => {
    expect(visitEnd(at('2026-12-09T14:00:00Z'), 90).toISOString()).toBe('2026-12-09T16:00:00.000Z');
  });
});
