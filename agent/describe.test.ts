import { describe, expect, it } from 'vitest';
import { describeCall } from './describe.js';

const timeZone = 'America/New_York';
const services = [{ id: 'svc_deep_clean', name: 'Deep Cleaning' }];
const bookings = [
  { id: 'BKG-1002', service_name: 'Deep Cleaning', starts_at: '2026-12-08T10:00:00-05:00' },
  { id: 'BKG-1003', service_id: 'svc_deep_clean', starts_at: '2026-12-10T09:00:00-05:00' },
];

describe('describeCall for booking changes', () => {
  it('names the booking, what and when it is, and the new time', () => {
    expect(
      describeCall(
        { name: 'reschedule_booking', args: { booking_id: 'BKG-1002', new_start_time: '2026-12-09T10:00:00-05:00' } },
        { timeZone, services, bookings },
      ),
    ).toBe('move booking BKG-1002 (Deep Cleaning, Tue, Dec 8, 10:00 AM EST) to Wed, Dec 9, 10:00 AM EST');
    expect(
      describeCall({ name: 'cancel_booking', args: { booking_id: 'BKG-1003' } }, { timeZone, services, bookings }),
    ).toBe('cancel booking BKG-1003 (Deep Cleaning, Thu, Dec 10, 9:00 AM EST)');
  });

  it('still reads well without the booking on hand', () => {
    expect(
      describeCall(
        { name: 'reschedule_booking', args: { booking_id: 'BKG-1009', new_start_time: '2026-12-09T14:00:00-05:00' } },
        { timeZone, services },
      ),
    ).toBe('move booking BKG-1009 to Wed, Dec 9, 2:00 PM EST');
    expect(describeCall({ name: 'cancel_booking', args: { booking_id: 'BKG-1009' } }, { timeZone, services })).toBe(
      'cancel booking BKG-1009',
    );
  });

  it('never throws on odd arguments', () => {
    const odd = [{}, { booking_id: 42, new_start_time: 'next tuesday' }, { booking_id: '', new_start_time: null }];
    for (const args of odd) {
      for (const name of ['reschedule_booking', 'cancel_booking', 'book_slot'])
        expect(() => describeCall({ name, args }, { timeZone, services, bookings })).not.toThrow();
    }
    expect(describeCall({ name: 'reschedule_booking', args: {} }, { timeZone, services })).toBe(
      'move your booking to a new time',
    );
    expect(
      describeCall(
        { name: 'reschedule_booking', args: { booking_id: 'BKG-1002', new_start_time: 'soon' } },
        {
          timeZone,
          services,
          bookings: [{ id: 'BKG-1002', starts_at: 'garbled' }],
        },
      ),
    ).toBe('move booking BKG-1002 to soon');
    expect(describeCall({ name: 'cancel_booking', args: {} }, { timeZone, services })).toBe('cancel your booking');
    expect(describeCall({ name: 'book_slot', args: { service_id: 'svc_deep_clean' } }, { timeZone, services })).toBe(
      'book Deep Cleaning',
    );
  });
});
