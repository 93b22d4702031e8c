// The edit form for booking times: a datepicker and a timepicker in the business time zone, never
// an ISO string to type, and never the customer. Checked against local-slack's Block Kit rules.
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../agent/approvals/ledger.js';
import { parseToolArgs } from '../../schema/tools/catalog.js';
import { validateView } from '../../local-slack/index.js';
import type { CardContext } from './card.js';
import { editFields, editModal } from './modals.js';
import {
  argsFromSubmission,
  datetimeIssues,
  errorsForIssues,
  issueText,
  TIME_SUFFIX,
  type SubmittedState,
} from './schema-form.js';

const TZ = 'America/New_York';
const ctx: CardContext = {
  timeZone: TZ,
  customer: null,
  services: [{ id: 'svc_deep_clean', name: 'Deep Cleaning', duration_minutes: 240, price_cents: 26000 }],
};

function approval(tool: string, args: Record<string, unknown>): Approval {
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
    proposed_by: 'customer:cus_001',
    request_text: null,
    approver: null,
    decided_at: null,
    decision_reason: null,
    expires_at: new Date('2026-12-07T18:00:00Z'),
    superseded_by: null,
    executed_at: null,
    result: null,
    error: null,
    outcome_delivered_at: null,
    card_channel: null,
    card_ts: null,
    created_at: new Date('2026-12-07T14:00:00Z'),
  };
}

type El = { type: string; initial_date?: string; initial_time?: string; timezone?: string };
const elementOf = (blocks: { block_id?: string }[], id: string) =>
  (blocks.find((b) => b.block_id === id) as unknown as { element: El } | undefined)?.element;

const picked = (date: string | null, time: string | null, path = 'start_time'): SubmittedState => ({
  [path]: { value: { type: 'datepicker', selected_date: date } },
  [`${path}${TIME_SUFFIX}`]: { value: { type: 'timepicker', selected_time: time } },
});

describe('booking times are edited with pickers', () => {
  it('book_slot and reschedule_booking: a day and a time, initially the proposed time here', () => {
    const book = approval('book_slot', {
      customer_id: 'cus_001',
      service_id: 'svc_deep_clean',
      // Written in UTC: still shown as the business's wall clock.
      start_time: '2026-12-08T15:00:00.000Z',
    });
    const move = approval('reschedule_booking', {
      customer_id: 'cus_001',
      booking_id: 'BKG-1001',
      new_start_time: '2026-12-09T14:00:00-05:00',
    });
    for (const [a, path, date, time] of [
      [book, 'start_time', '2026-12-08', '10:00'],
      [move, 'new_start_time', '2026-12-09', '14:00'],
    ] as const) {
      const fields = editFields(a.tool, ctx);
      expect(fields.find((f) => f.path === path)?.kind, a.tool).toBe('datetime');
      expect(
        fields.some((f) => f.path === 'customer_id'),
        a.tool,
      ).toBe(false);
      const modal = editModal(a, ctx);
      expect(validateView(modal, 'modal'), a.tool).toEqual([]);
      expect(elementOf(modal.blocks, path)).toMatchObject({ type: 'datepicker', initial_date: date });
      expect(elementOf(modal.blocks, `${path}${TIME_SUFFIX}`)).toMatchObject({
        type: 'timepicker',
        initial_time: time,
        timezone: TZ,
      });
      expect(
        modal.blocks.some((b) => b.block_id === 'customer_id'),
        a.tool,
      ).toBe(false);
      expect(JSON.stringify(modal.blocks)).not.toContain('ISO 8601');
    }
  });

  it('a submission comes back as ISO 8601 with the offset of the picked day', () => {
    const fields = editFields('book_slot', ctx);
    const base = { customer_id: 'cus_001', service_id: 'svc_deep_clean' };
    const winter = argsFromSubmission(fields, picked('2026-12-09', '11:00'), base, { timeZone: TZ });
    expect(winter).toEqual({ ...base, start_time: '2026-12-09T11:00:00-05:00' });
    expect(parseToolArgs('book_slot', winter).ok).toBe(true);
    // After the spring change the same wall time has another offset.
    const spring = argsFromSubmission(fields, picked('2027-03-15', '11:00'), base, { timeZone: TZ });
    expect(spring.start_time).toBe('2027-03-15T11:00:00-04:00');
    expect(datetimeIssues(fields, picked('2027-03-15', '11:00'), TZ)).toEqual([]);
  });

  it('a time the clocks skip, or half a pick, is refused on the day input', () => {
    const fields = editFields('book_slot', ctx);
    const skipped = picked('2027-03-14', '02:30');
    const issues = datetimeIssues(fields, skipped, TZ);
    expect(issues).toEqual([{ path: 'start_time', message: expect.stringMatching(/doesn't exist/) }]);
    expect(argsFromSubmission(fields, skipped, {}, { timeZone: TZ }).start_time).toBeUndefined();
    expect(datetimeIssues(fields, picked('2026-12-09', null), TZ)).toEqual([
      { path: 'start_time', message: expect.stringMatching(/day and a time/) },
    ]);
    const blockIds = ['service_id', 'start_time', `start_time${TIME_SUFFIX}`, 'notes'];
    expect(Object.keys(errorsForIssues(issues, blockIds))).toEqual(['start_time']);
  });

  it('a refused time says what the tool said and offers its free times', () => {
    const text = issueText({
      path: 'start_time',
      code: 'outside_business_hours',
      message: 'Sun, Dec 13, 10:00 AM EST is outside our visit hours. We have no visits on that day of the week.',
      alternatives: [
        { start_time: '2026-12-12T11:00:00-05:00', display: 'Sat, Dec 12, 11:00 AM EST' },
        { start_time: '2026-12-14T08:00:00-05:00', display: 'Mon, Dec 14, 8:00 AM EST' },
      ],
    });
    expect(text).toBe(
      'Sun, Dec 13, 10:00 AM EST is outside our visit hours. We have no visits on that day of the week. ' +
        'Free times nearby: Sat, Dec 12, 11:00 AM EST; Mon, Dec 14, 8:00 AM EST.',
    );
    // A message that already lists them is not repeated.
    const listed = issueText({
      path: 'start_time',
      message: 'Not available. Nearest free start times: Sat, Dec 12, 11:00 AM EST.',
      alternatives: [{ start_time: '2026-12-12T11:00:00-05:00', display: 'Sat, Dec 12, 11:00 AM EST' }],
    });
    expect(listed).toBe('Not available. Nearest free start times: Sat, Dec 12, 11:00 AM EST.');
  });
});
