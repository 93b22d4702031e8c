import { describe, expect, it } from 'vitest';
import { splitChange } from './analysis/booking-change.js';
import { afterLookup, callNames, NOW, pendingBooking, plan, seedContext, TZ } from './testing.js';

// Failures of a blind set (evals/open/outsider-17-SCENARIOS.md), as classes: "dentist" is no dent, a change taken
// back by naming it ("forget the cancellation", "keep the old one"), a neighbour's visit asked for ("put her in for
// saturday"), a visit's time checked ("my fan installation is this Saturday at 9 am, correct?"), and the new time
// said after the one it replaces ("Instead of 2pm can they come at 9am").

const writes = (t: { calls: { name: string }[] }) =>
  callNames(t).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

describe('no write', () => {
  it('"actually make it 11, i forgot i have dentist at 1" reports no damage', () => {
    const ctx = seedContext({ pending: [pendingBooking()] });
    expect(callNames(plan(ctx, 'actually make it 11, i forgot i have dentist at 1'))).not.toContain('create_ticket');
  });

  it('a neighbour\'s visit: "can you put her in for saturday the 19th at 9?"', () => {
    const t = plan(
      seedContext(),
      'my neighbour at 77 Cedar Hill Rd wants her windows done too, can you put her in for saturday the 19th at 9? ' +
        'she doesnt do slack',
    );
    expect(writes(t)).toEqual([]);
  });

  it('"my fan installation is this Saturday at 9 am, correct?" looks the visit up', () => {
    const t = plan(seedContext(), 'Just double checking, my fan installation is this Saturday at 9 am, correct?');
    expect(callNames(t)).toEqual(['lookup_customer']);
  });
});

describe('a change taken back by naming it', () => {
  it.each([
    [
      'Oh hang on, I mixed things up, the fan is the one I want to keep. Forget the cancellation please.',
      pendingBooking({ tool: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-1008' } }),
    ],
    [
      'wait no, sorry, thats my work line. keep the old one',
      pendingBooking({ tool: 'update_customer', args: { customer_id: 'cus_001', changes: { phone: '555-201-0000' } } }),
    ],
  ])('%s', (text, pending) => {
    expect(callNames(plan(seedContext({ pending: [pending] }), text))).toContain('withdraw_request');
  });
});

describe('the new time after the one it replaces', () => {
  it('Instead of 2pm can they come at 9am that same day', () => {
    const text = 'Need to change my cleaning on friday the 18th. Instead of 2pm can they come at 9am that same day';
    expect(splitChange(text, { now: NOW, timeZone: TZ }).target).toMatch(/9am/);
    const clean = {
      id: 'BKG-1017',
      service_id: 'svc_standard_clean',
      service_name: 'Standard Home Cleaning',
      starts_at: '2026-12-18T14:00:00-05:00',
    };
    const second = afterLookup(seedContext(), text, [clean]);
    expect(second.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-1017', new_start_time: '2026-12-18T09:00:00-05:00' },
      },
    ]);
  });
});

describe('a start too late for the service to finish by closing', () => {
  it('Book a deep clean 12/15 at 3pm', () => {
    const t = plan(seedContext(), 'Book a deep clean 12/15 at 3pm');
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/latest start on Tue, Dec 15 is 2:00 PM/);
  });
});

describe('a move to a start the day does not have for the service', () => {
  it('can you move my appointment tomorrow to 6pm? I get home late', () => {
    const text = 'can you move my appointment tomorrow to 6pm? I get home late';
    const windows = {
      id: 'BKG-1002',
      service_id: 'svc_window_clean',
      service_name: 'Interior Window Cleaning',
      starts_at: '2026-12-08T14:00:00-05:00',
    };
    const second = afterLookup(seedContext(), text, [windows]);
    expect(writes(second)).toEqual([]);
    expect(second.content).toMatch(/4:00 PM/);
  });
});
