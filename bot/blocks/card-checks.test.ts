// What a manager needs to judge a card: the whole request, the customer's bookings, and a warning
// for every conflict or no-op the proposal would make. The builders alone; see bot/cards.test.ts for
// the same warnings drawn from Postgres.
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../agent/approvals/ledger.js';
import { validateBlocks } from '../../local-slack/index.js';
import { approvalCard } from './card.js';
import type { BookingRow, CardContext } from './card-context.js';
import type { Block } from './types.js';

const TZ = 'America/New_York';
const NOW = new Date('2026-12-07T14:00:00Z'); // Mon 09:00 EST

const deepClean: BookingRow = {
  id: 'BKG-1002',
  customer_id: 'cus_001',
  service_id: 'svc_deep_clean',
  service_name: 'Deep Cleaning',
  price_cents: 26000,
  crew: 'crew-a',
  starts_at: new Date('2026-12-08T15:00:00Z'), // Tue 10:00 EST
  ends_at: new Date('2026-12-08T19:00:00Z'),
  status: 'confirmed',
};
const windows: BookingRow = {
  id: 'BKG-1003',
  customer_id: 'cus_001',
  service_id: 'svc_window_clean',
  service_name: 'Window Cleaning',
  price_cents: 12000,
  crew: 'crew-a',
  starts_at: new Date('2026-12-09T16:00:00Z'), // Wed 11:00 EST
  ends_at: new Date('2026-12-09T18:00:00Z'),
  status: 'confirmed',
};

const base: CardContext = {
  timeZone: TZ,
  customer: {
    id: 'cus_001',
    name: 'Test Customer',
    email: 'test.customer@example.com',
    phone: '(555) 201-3344',
    address_line1: '18 Wharf Street',
    address_unit: null,
    city: 'Harbor',
    postal_code: 'H 1012',
    preferences: { contact: 'sms' },
    notes: null,
  },
  services: [
    { id: 'svc_deep_clean', name: 'Deep Cleaning', duration_minutes: 240, price_cents: 26000 },
    { id: 'svc_window_clean', name: 'Window Cleaning', duration_minutes: 120, price_cents: 12000 },
  ],
  now: NOW,
  upcomingBookings: [deepClean, windows],
};

function approval(tool: string, args: Record<string, unknown>, extra: Partial<Approval> = {}): Approval {
  return {
    id: '5e61f11a-7698-8b8f-8a8e-90c37fd98567',
    thread_id: 'slack:C01SUPPORT0:1.1',
    tool_call_id: 'c1',
    tool,
    status: 'pending',
    args_original: args,
    args,
    args_hash: 'h',
    customer_id: 'cus_001',
    proposed_by: 'agent',
    request_text: 'please',
    approver: null,
    decided_at: null,
    decision_reason: null,
    expires_at: new Date('2026-12-08T23:00:00Z'),
    superseded_by: null,
    executed_at: null,
    result: null,
    error: null,
    outcome_delivered_at: null,
    card_channel: null,
    card_ts: null,
    created_at: NOW,
    ...extra,
  };
}

const textOf = (b: Block) =>
  'text' in b && b.text && typeof b.text === 'object' ? (b.text as { text: string }).text : JSON.stringify(b);

/** The warning block's text, checking it sits right above the buttons; '' when there is none. */
function warnings(card: { blocks: Block[] }): string {
  expect(validateBlocks(card.blocks, 'message')).toEqual([]);
  const i = card.blocks.findIndex((b) => b.block_id === 'approval_warnings');
  if (i < 0) return '';
  const actions = card.blocks.findIndex((b) => b.type === 'actions');
  if (actions >= 0) expect(i).toBeLessThan(actions);
  return textOf(card.blocks[i]!);
}
const all = (card: { blocks: Block[] }) => card.blocks.map(textOf).join('\n');

const book = (start: string, service = 'svc_deep_clean') =>
  approval('book_slot', { customer_id: 'cus_001', service_id: service, start_time: start });

describe('book_slot: duplicates and overlaps', () => {
  it('"move my deep clean to wednesday" as a new booking: the card says there already is one', () => {
    const w = warnings(approvalCard(book('2026-12-09T15:00:00Z'), base));
    expect(w).toContain('⚠️ Customer already has Deep Cleaning on Tue, Dec 8, 10:00 AM EST (`BKG-1002`)');
    expect(w).toContain('reschedule');
  });

  it('a visit overlapping another of their bookings is flagged, whatever the service', () => {
    const w = warnings(
      approvalCard(book('2026-12-09T14:00:00Z', 'svc_deep_clean'), { ...base, upcomingBookings: [windows] }),
    );
    expect(w).toContain('overlaps');
    expect(w).toContain('Window Cleaning on Wed, Dec 9, 11:00 AM EST (`BKG-1003`)');
  });

  it('no warning for an unrelated booking far enough away, or when bookings were not loaded', () => {
    expect(warnings(approvalCard(book('2026-12-18T15:00:00Z', 'svc_window_clean'), base))).toBe('');
    expect(warnings(approvalCard(book('2026-12-09T15:00:00Z'), { ...base, upcomingBookings: undefined }))).toBe('');
  });

  it('no warnings on a decided card: its own booking is not its duplicate', () => {
    const done = book('2026-12-09T15:00:00Z');
    done.status = 'executed';
    expect(warnings(approvalCard(done, base))).toBe('');
  });
});

describe('upcoming bookings on every card of a customer', () => {
  it('lists them soonest first with service, time and id', () => {
    const card = approvalCard(
      approval('create_ticket', { customer_id: 'cus_001', subject: 'Hi', description: 'x' }),
      base,
    );
    expect(validateBlocks(card.blocks, 'message')).toEqual([]);
    const t = all(card);
    expect(t).toContain('*Upcoming bookings*');
    expect(t.indexOf('Deep Cleaning · Tue, Dec 8, 10:00 AM EST · `BKG-1002`')).toBeLessThan(
      t.indexOf('Window Cleaning · Wed, Dec 9, 11:00 AM EST · `BKG-1003`'),
    );
  });

  it('says when there are none, and stays within Block Kit limits when there are many', () => {
    expect(all(approvalCard(book('2026-12-09T15:00:00Z'), { ...base, upcomingBookings: [] }))).toContain(
      '_No upcoming bookings._',
    );
    const many = Array.from({ length: 40 }, (_, i) => ({
      ...windows,
      id: `BKG-${2000 + i}`,
      starts_at: new Date(windows.starts_at.getTime() + (i + 30) * 86_400_000),
      ends_at: new Date(windows.ends_at.getTime() + (i + 30) * 86_400_000),
    }));
    const card = approvalCard(book('2026-12-09T15:00:00Z'), { ...base, upcomingBookings: many });
    expect(validateBlocks(card.blocks, 'message')).toEqual([]);
    expect(all(card)).toMatch(/…and 3\d more/);
  });
});

describe('the whole request', () => {
  it('every customer message, quoted in order', () => {
    const card = approvalCard(
      { ...book('2026-12-09T15:00:00Z'), request_text: 'I have a deep clean <b>\n\ncan you move it\n\nwednesday' },
      base,
    );
    expect(all(card)).toContain('>I have a deep clean &lt;b&gt;\n>\n>can you move it\n>\n>wednesday');
  });
});

describe('reschedule_booking', () => {
  const move = (extra: Record<string, unknown> = {}) =>
    approval('reschedule_booking', {
      customer_id: 'cus_001',
      booking_id: 'BKG-1002',
      new_start_time: '2026-12-09T19:00:00Z',
      ...extra,
    });

  it('names the booking being moved, from → to, and the fee (free with more than 24 h notice)', () => {
    // Decided (or expired) before the visit comes within 24 hours: free whenever it is approved.
    const soon = { ...move(), expires_at: new Date('2026-12-07T14:30:00Z') };
    const card = approvalCard(soon, { ...base, targetBooking: deepClean });
    const t = all(card);
    expect(t).toContain('Deep Cleaning (`BKG-1002`)');
    expect(t).toContain('Tue, Dec 8, 10:00 AM EST → *Wed, Dec 9, 2:00 PM EST*');
    expect(t).toMatch(/No fee/);
    expect(warnings(card)).toBe('');
  });

  it('the fee is set by when the customer asked: free when asked more than 24 h ahead, however late', () => {
    const asked = new Date('2026-12-07T13:00:00Z'); // 26 h before the visit
    const later = new Date('2026-12-07T16:00:00Z'); // 23 h before
    const card = approvalCard({ ...move(), created_at: asked }, { ...base, now: later, targetBooking: deepClean });
    expect(all(card)).toMatch(/No fee/);
    expect(warnings(card)).toBe('');
  });

  it('asked within 24 hours: the $25 fee is on the card and flagged', () => {
    const late = new Date('2026-12-07T16:00:00Z'); // 23 h before the visit
    const card = approvalCard({ ...move(), created_at: late }, { ...base, now: late, targetBooking: deepClean });
    expect(all(card)).toContain('$25.00');
    expect(warnings(card)).toContain('Moving it costs $25.00');
    expect(warnings(card)).toContain('asked 23 h before the visit');
  });

  it('flags a booking that does not exist, is someone else’s, is cancelled, or is past', () => {
    expect(warnings(approvalCard(move(), { ...base, targetBooking: null }))).toContain(
      'There is no booking `BKG-1002`',
    );
    expect(
      warnings(approvalCard(move(), { ...base, targetBooking: { ...deepClean, customer_id: 'cus_099' } })),
    ).toContain('`BKG-1002` belongs to another customer');
    expect(warnings(approvalCard(move(), { ...base, targetBooking: { ...deepClean, status: 'cancelled' } }))).toContain(
      '`BKG-1002` is cancelled',
    );
    expect(
      warnings(approvalCard(move(), { ...base, now: new Date('2026-12-08T16:00:00Z'), targetBooking: deepClean })),
    ).toContain('has already started');
  });

  it('flags a move onto the time it already has, and onto another of their visits', () => {
    expect(
      warnings(
        approvalCard(move({ new_start_time: '2026-12-08T10:00:00-05:00' }), { ...base, targetBooking: deepClean }),
      ),
    ).toContain('already at that time');
    const onto = warnings(
      approvalCard(move({ new_start_time: '2026-12-09T15:00:00Z' }), { ...base, targetBooking: deepClean }),
    );
    expect(onto).toContain('overlaps');
    expect(onto).toContain('`BKG-1003`');
    expect(onto).not.toContain('`BKG-1002`');
  });
});

describe('cancel_booking', () => {
  const cancel = approval('cancel_booking', {
    customer_id: 'cus_001',
    booking_id: 'BKG-1002',
    reason: 'moving <away>',
  });

  it('the booking, the reason and the fee cancelling costs', () => {
    const free = approvalCard(cancel, { ...base, targetBooking: deepClean });
    expect(all(free)).toContain('Deep Cleaning (`BKG-1002`)');
    expect(all(free)).toContain('Tue, Dec 8, 10:00 AM EST');
    expect(all(free)).toContain('moving &lt;away&gt;');
    expect(all(free)).toMatch(/No fee/);
    const at = new Date('2026-12-08T00:00:00Z');
    const late = approvalCard({ ...cancel, created_at: at }, { ...base, now: at, targetBooking: deepClean });
    expect(all(late)).toContain('$130.00');
    expect(warnings(late)).toContain('Cancelling it costs $130.00');
  });

  it('flags a booking that is not there to cancel', () => {
    expect(warnings(approvalCard(cancel, { ...base, targetBooking: null }))).toContain(
      'There is no booking `BKG-1002`',
    );
  });

  it('after it ran: what it cost, from the result', () => {
    const done = approvalCard(
      {
        ...cancel,
        status: 'executed',
        result: {
          booking: { ...deepClean, starts_at: '2026-12-08T10:00:00-05:00', status: 'cancelled' },
          fee: { fee_cents: 13000, notice_hours: 20, rule: 'late' },
        },
      },
      { ...base, targetBooking: { ...deepClean, status: 'cancelled' } },
    );
    expect(all(done)).toContain('Booking `BKG-1002` cancelled (Deep Cleaning, Tue, Dec 8, 10:00 AM EST); fee $130.00.');
    expect(warnings(done)).toBe('');
  });
});

describe('update_customer: a "change" to the value it already has', () => {
  it('is flagged; a real change is not', () => {
    const same = approvalCard(
      approval('update_customer', {
        customer_id: 'cus_001',
        changes: { phone: '555 201 3344', email: 'NEW@example.com', preferences: { contact: 'sms' } },
      }),
      base,
    );
    const w = warnings(same);
    expect(w).toContain('Phone is already');
    expect(w).toContain('Contact is already');
    expect(w).not.toContain('Email');
    expect(
      warnings(
        approvalCard(
          approval('update_customer', {
            customer_id: 'cus_001',
            changes: { address: { line1: '18 wharf street', city: 'Harbor', postal_code: 'H 1012' } },
          }),
          base,
        ),
      ),
    ).toContain('Address is already');
  });
});

describe('send_email: the recipient', () => {
  const email = (to?: string) =>
    approval('send_email', { customer_id: 'cus_001', subject: 'Hi', body: 'Hello', ...(to ? { to } : {}) });

  it('shows the address on file, and flags a `to` that differs from it', () => {
    const other = approvalCard(email('someone.else@example.net'), base);
    expect(all(other)).toContain('test.customer@example.com');
    expect(warnings(other)).toContain(
      'Sends to someone.else@example.net, not the address on file (test.customer@example.com)',
    );
    const same = approvalCard(email('Test.Customer@example.com'), base);
    expect(warnings(same)).toBe('');
    expect(all(same)).toContain('(address on file)');
    expect(warnings(approvalCard(email(), base))).toBe('');
    expect(warnings(approvalCard(email(), { ...base, customer: { ...base.customer!, email: null } }))).toContain(
      'No email address on file',
    );
  });
});
