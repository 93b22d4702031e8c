import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approvalEventMessage,
  type ApprovalEvent,
  type PendingApproval,
  type PlanContext,
} from '../../plan-context.js';
import { planTurn, toAIMessage, type PlannedTurn } from './planner.js';
import {
  callIssues,
  customer,
  loadRegistry,
  lookupFound,
  MARIA,
  makeContext,
  pendingBooking,
  plan,
  system,
  toolResult,
  type Upcoming,
} from './testing.js';

/*
 * Moving and cancelling bookings the customer already has: the planner looks the bookings up
 * first, picks the one meant (or asks), and proposes reschedule_booking / cancel_booking, never a
 * second book_slot. The clock is Monday 2026-12-07 09:00 in New York.
 */

let parseToolArgs: Awaited<ReturnType<typeof loadRegistry>>;
beforeAll(async () => {
  parseToolArgs = await loadRegistry();
});

const DEEP: Upcoming = {
  id: 'BKG-2001',
  service_id: 'svc_deep_clean',
  service_name: 'Deep Cleaning',
  starts_at: '2026-12-11T10:00:00-05:00', // Fri
};
const WINDOW: Upcoming = {
  id: 'BKG-2002',
  service_id: 'svc_window_clean',
  service_name: 'Interior Window Cleaning',
  starts_at: '2026-12-09T14:00:00-05:00', // Wed
};
const SOON: Upcoming = {
  id: 'BKG-2003',
  service_id: 'svc_standard_clean',
  service_name: 'Standard Home Cleaning',
  starts_at: '2026-12-08T08:00:00-05:00', // Tue, 23 hours away
  price_cents: 14900,
};

/** Maria's record as lookup_customer returns it in full. */
const RECORD = { ...MARIA, address: null, preferences: {}, notes: null };

const kb = makeContext();
const reply = (turn: PlannedTurn) => new AIMessage({ content: turn.content, additional_kwargs: {} });

function expectValid(turn: PlannedTurn) {
  for (const c of turn.calls)
    expect(callIssues(c.name, c.args, parseToolArgs), `${c.name} ${JSON.stringify(c.args)}`).toEqual([]);
}

/**
 * Plan a customer message the way the graph runs it: the planner's turn, and when it looks the
 * customer up, the lookup result (with these bookings) and the planner's turn after it.
 */
function converse(ctx: PlanContext, history: BaseMessage[], text: string, bookings: Upcoming[]) {
  const window: BaseMessage[] = [system(ctx), ...history, customer(text)];
  const first = planTurn(window);
  expectValid(first);
  if (first.calls.length !== 1 || first.calls[0]!.name !== 'lookup_customer') return { first, window };
  const ai = toAIMessage(first, window, 'thread-test');
  const after = [...window, ai, toolResult(ai.tool_calls![0]!.id!, 'lookup_customer', lookupFound(bookings, RECORD))];
  const second = planTurn(after);
  expectValid(second);
  return { first, second, window: after };
}

/** The messages after a planned turn that only talks (a clarifying question), ready for the next customer message. */
const said = (window: BaseMessage[], turn: PlannedTurn) => [
  ...window.slice(1),
  toAIMessage(turn, window, 'thread-test'),
];

describe('moving a booking the customer already has', () => {
  it('"can you move my deep clean to wednesday" looks the bookings up and moves that booking (never book_slot)', () => {
    const { first, second } = converse(kb, [], 'can you move my deep clean to wednesday', [WINDOW, DEEP]);
    expect(first.calls).toEqual([{ name: 'lookup_customer', args: { customer_id: 'cus_001' } }]);
    expect(second!.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-2001', new_start_time: '2026-12-09T10:00:00-05:00' },
      },
    ]);
    expect(second!.content).toContain('Fri, Dec 11, 10:00 AM EST');
    expect(second!.content).toContain('Wed, Dec 9, 10:00 AM EST');
    expect(second!.content).toMatch(/no fee/i);
  });

  it('picks the booking by the date named ("the one on the 9th")', () => {
    const { second } = converse(kb, [], 'please move the one on the 9th to thursday at 1pm', [WINDOW, DEEP]);
    expect(second!.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2002', new_start_time: '2026-12-10T13:00:00-05:00' },
    });
  });

  it('picks the only booking, and "from … to …" reads the new time after "to"', () => {
    const { second } = converse(kb, [], 'I need to reschedule my booking from friday to monday the 14th at 9am', [
      DEEP,
    ]);
    expect(second!.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2001', new_start_time: '2026-12-14T09:00:00-05:00' },
    });
  });

  it('a new time alone keeps the day; "an hour later" shifts the booked time', () => {
    expect(converse(kb, [], 'can you change the time of my deep clean to 1pm?', [DEEP]).second!.calls[0]!.args).toEqual(
      { customer_id: 'cus_001', booking_id: 'BKG-2001', new_start_time: '2026-12-11T13:00:00-05:00' },
    );
    expect(
      converse(kb, [], 'could you push my deep clean an hour later?', [DEEP]).second!.calls[0]!.args.new_start_time,
    ).toBe('2026-12-11T11:00:00-05:00');
  });

  it('asks which one when several could be meant (service and day/time of each), then moves the one picked', () => {
    const { second, window } = converse(kb, [], 'can you move my booking to friday at 3pm?', [WINDOW, DEEP]);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toContain('Interior Window Cleaning on Wed, Dec 9, 2:00 PM EST');
    expect(second!.content).toContain('Deep Cleaning on Fri, Dec 11, 10:00 AM EST');
    expect(second!.content).toMatch(/which one/i);
    const picked = planTurn([system(kb), ...said(window, second!), customer('the window cleaning')]);
    expectValid(picked);
    expect(picked.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-2002', new_start_time: '2026-12-11T15:00:00-05:00' },
      },
    ]);
    // The deep clean takes 4 hours: at 3 PM it would run past closing, so its latest start is offered instead.
    const byNumber = planTurn([system(kb), ...said(window, second!), customer('the second one')]);
    expect(byNumber.calls).toEqual([]);
    expect(byNumber.content).toMatch(/latest start on Fri, Dec 11 is 2:00 PM/);
  });

  it('says so when there is no upcoming booking, and offers to book', () => {
    const { second } = converse(kb, [], 'can you move my cleaning to friday at 2pm?', []);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toMatch(/don't see any upcoming bookings/);
    expect(second!.content).toMatch(/book/);
  });

  it('a service the customer has not booked is not guessed: it names what they have and asks', () => {
    const { second, window } = converse(kb, [], 'move my deep clean to thursday at 9am', [WINDOW]);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toMatch(/don't see a Deep Cleaning/);
    expect(second!.content).toContain('Interior Window Cleaning on Wed, Dec 9, 2:00 PM EST');
    const yes = planTurn([system(kb), ...said(window, second!), customer('yes that one')]);
    expect(yes.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2002', new_start_time: '2026-12-10T09:00:00-05:00' },
    });
  });

  it('asks for the new time when none is given, then moves it', () => {
    const { second, window } = converse(kb, [], 'can you reschedule my deep clean?', [WINDOW, DEEP]);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toContain('Fri, Dec 11, 10:00 AM EST');
    expect(second!.content).toMatch(/\?/);
    const t = planTurn([system(kb), ...said(window, second!), customer('thursday at 2pm')]);
    expectValid(t);
    expect(t.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-2001', new_start_time: '2026-12-10T14:00:00-05:00' },
      },
    ]);
  });

  it('while we wait for the new time, a question or a new request is not read as the answer', () => {
    const { second, window } = converse(kb, [], 'can you reschedule my deep clean?', [DEEP]);
    const next = (text: string) => planTurn([system(kb), ...said(window, second!), customer(text)]);
    expect(next('are you open on saturday?').calls).toEqual([]);
    expect(next('book a window cleaning on thursday at 2pm').calls.map((c) => c.name)).toEqual(['book_slot']);
    expect(next('how about thursday at 2pm?').calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2001', new_start_time: '2026-12-10T14:00:00-05:00' },
    });
  });

  it('a time that has passed is asked again, not proposed', () => {
    const { second } = converse(kb, [], 'move my deep clean to today at 8am', [DEEP]);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toMatch(/already passed/);
  });

  it('a refusal with alternatives offers them, and the pick moves the same booking', () => {
    const { second, window } = converse(kb, [], 'move my deep clean to sunday at 10am', [DEEP]);
    const ai = toAIMessage(second!, window, 'thread-test');
    const refused = [
      ...window,
      ai,
      toolResult(
        ai.tool_calls![0]!.id!,
        'reschedule_booking',
        {
          error: {
            code: 'outside_business_hours',
            message: 'We do not work on Sundays.',
            details: {
              alternatives: [
                { start_time: '2026-12-12T10:00:00-05:00', label: 'Sat, Dec 12, 10:00 AM EST' },
                { start_time: '2026-12-14T10:00:00-05:00', label: 'Mon, Dec 14, 10:00 AM EST' },
              ],
            },
          },
        },
        true,
      ),
    ];
    const told = planTurn(refused);
    expect(told.calls).toEqual([]);
    expect(told.content).toContain('1. Sat, Dec 12, 10:00 AM EST');
    expect(told.content).toMatch(/Nothing was changed/);
    const pick = planTurn([...refused, toAIMessage(told, refused), customer('the second one')]);
    expect(pick.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-2001', new_start_time: '2026-12-14T10:00:00-05:00' },
      },
    ]);
  });

  it('a booking made in this conversation is moved with reschedule_booking; "too" still books an extra visit', () => {
    const args = { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-11T10:00:00-05:00' };
    const executed = approvalEventMessage({
      approval_id: 'apr_b',
      tool: 'book_slot',
      args,
      status: 'executed',
      edited: false,
      result: { booking: { ...DEEP, customer_id: 'cus_001', crew: 'crew-a', status: 'confirmed' } },
    });
    const history = [customer('book a deep clean friday at 10'), executed, new AIMessage('Booked.')];
    const { first, second } = converse(kb, history, 'can you move it to the same time next week?', [WINDOW, DEEP]);
    expect(first.calls.map((c) => c.name)).toEqual(['lookup_customer']);
    expect(second!.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2001', new_start_time: '2026-12-18T10:00:00-05:00' },
    });
    const extra = converse(kb, history, 'great, same time next week too please', [DEEP]);
    expect(extra.first.calls.map((c) => c.name)).toEqual(['book_slot']);
    // "that booking" is the one of this conversation, even next to another of the same service.
    const other = { ...DEEP, id: 'BKG-2009', starts_at: '2026-12-16T10:00:00-05:00' };
    const cancel = converse(kb, history, 'sorry, please cancel that booking altogether', [DEEP, other]);
    expect(cancel.second!.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2001' } },
    ]);
  });
});

describe('a pending booking request of this thread is still changed by superseding it', () => {
  const withPending = makeContext({ pending: [pendingBooking()] });
  it.each([
    ['actually make it 3pm', '2026-12-08T15:00:00-05:00'],
    ['move it to Thursday', '2026-12-10T10:00:00-05:00'],
    ['can you move my deep clean to wednesday', '2026-12-09T10:00:00-05:00'],
  ])('%s → book_slot again', (text, start) => {
    const t = plan(withPending, text);
    expect(t.calls).toEqual([
      { name: 'book_slot', args: { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: start } },
    ]);
  });

  it('"cancel my booking" takes the pending request back (withdraw_request)', () => {
    const t = plan(withPending, 'cancel my booking');
    expect(t.calls.map((c) => c.name)).toEqual(['withdraw_request']);
  });

  it('a different service named is a booking they already have: looked up, not the pending request', () => {
    const t = plan(withPending, 'also please move my window cleaning to friday at 1pm');
    expect(t.calls.map((c) => c.name)).toEqual(['lookup_customer']);
  });
});

describe('cancelling a booking the customer already has', () => {
  it('more than 24 hours ahead: cancel_booking, and the reply says there is no fee', () => {
    const { first, second } = converse(kb, [], 'please cancel my window cleaning', [WINDOW, DEEP]);
    expect(first.calls).toEqual([{ name: 'lookup_customer', args: { customer_id: 'cus_001' } }]);
    expect(second!.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2002' } },
    ]);
    expect(second!.content).toContain('Interior Window Cleaning on Wed, Dec 9, 2:00 PM EST');
    expect(second!.content).toMatch(/no fee/i);
  });

  it('within 24 hours: the fee from the change policy is stated (50% of $149)', () => {
    const { second } = converse(kb, [], "cancel tomorrow's cleaning please", [SOON, DEEP]);
    expect(second!.calls[0]).toMatchObject({ name: 'cancel_booking', args: { booking_id: 'BKG-2003' } });
    expect(second!.content).toContain('$74.50');
    expect(second!.content).toMatch(/24 hours/);
  });

  it('"cancel my visit on friday" picks by day; the reason given goes along', () => {
    const { second } = converse(kb, [], "cancel my visit on friday because we'll be away", [WINDOW, DEEP]);
    expect(second!.calls[0]).toMatchObject({
      name: 'cancel_booking',
      args: { booking_id: 'BKG-2001', reason: expect.stringMatching(/away/) },
    });
  });

  it('a booking named by who comes, then said to be unwanted or "cancel pls": cancel_booking', () => {
    const HANDYMAN: Upcoming = {
      id: 'BKG-2004',
      service_id: 'svc_handyman_hour',
      service_name: 'Handyman Hour',
      starts_at: '2026-12-21T11:00:00-05:00',
    };
    for (const text of [
      "we're away over the holidays now so the handyman on the 21st isn't needed, cancel pls",
      'the handyman on the 21st is not needed any more',
      "we don't need the handyman on the 21st now",
      'cancel the handyman on the 21st please',
      'the handyman on the 21st - please cancel',
    ]) {
      const { first, second } = converse(kb, [], text, [WINDOW, HANDYMAN]);
      expect(first.calls, text).toEqual([{ name: 'lookup_customer', args: { customer_id: 'cus_001' } }]);
      expect(second!.calls, text).toMatchObject([{ name: 'cancel_booking', args: { booking_id: 'BKG-2004' } }]);
    }
    // Something else is unwanted, or the visit is talked about without cancelling it.
    for (const text of [
      'the handyman on the 21st said a ladder is not needed',
      'the handyman on the 21st, is a permit needed?',
      'is the cleaner on friday bringing supplies or are ours needed',
    ]) {
      const { first, second } = converse(kb, [], text, [WINDOW, HANDYMAN]);
      const calls = [...first.calls, ...(second?.calls ?? [])].map((c) => c.name);
      expect(calls, text).not.toContain('cancel_booking');
      expect(calls, text).not.toContain('book_slot');
    }
  });

  it('asks which one when several could be meant, then cancels the one picked', () => {
    const { second, window } = converse(kb, [], 'I need to cancel my booking', [WINDOW, DEEP]);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toMatch(/which one/i);
    const t = planTurn([system(kb), ...said(window, second!), customer('the one on friday')]);
    expect(t.calls).toEqual([{ name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2001' } }]);
  });

  it('"actually just cancel it" after a pending move cancels that booking instead', () => {
    const pendingMove: PendingApproval = {
      approval_id: 'apr_m',
      tool: 'reschedule_booking',
      args: { customer_id: 'cus_001', booking_id: 'BKG-2001', new_start_time: '2026-12-09T10:00:00-05:00' },
      tool_call_id: 'call_m',
      expires_at: '2026-12-07T18:00:00.000Z',
    };
    const ctx = makeContext({ pending: [pendingMove] });
    const { first, second } = converse(ctx, [], 'actually just cancel it', [WINDOW, DEEP]);
    expect(first.calls.map((c) => c.name)).toEqual(['lookup_customer']);
    expect(second!.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2001' } },
    ]);
    // …and a change of the pending move's time keeps to the new day.
    // (1 PM: a 4-hour deep clean must start by 2 PM to finish by closing.)
    const later = converse(ctx, [], 'make it 1pm instead', [WINDOW, DEEP]);
    expect(later.second!.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2001', new_start_time: '2026-12-09T13:00:00-05:00' },
    });
    // "never mind" still only takes the request back.
    expect(plan(ctx, 'never mind').calls).toEqual([
      { name: 'withdraw_request', args: { approval_id: 'apr_m', reason: 'never mind' } },
    ]);
  });

  it('questions about the policy are answered, not acted on', () => {
    for (const text of [
      "what's your cancellation policy if I need to move it?",
      'if I cancel the day before, is there a fee?',
      'how do I reschedule a booking?',
    ])
      expect(plan(kb, text).calls, text).toEqual([]);
  });

  it('an unlinked Slack user is told to get linked first', () => {
    const t = plan(makeContext({ customer: null }), 'please cancel my window cleaning');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/isn't linked/);
  });
});

describe('what the customer is told after a manager decides a booking change', () => {
  const move = {
    customer_id: 'cus_001',
    booking_id: 'BKG-2001',
    new_start_time: '2026-12-09T10:00:00-05:00',
  };
  const event = (e: Partial<ApprovalEvent> & Pick<ApprovalEvent, 'status' | 'tool'>) =>
    approvalEventMessage({ approval_id: 'apr_1', args: move, edited: false, ...e });
  const after = (e: Partial<ApprovalEvent> & Pick<ApprovalEvent, 'status' | 'tool'>) =>
    plan(kb, 'move my deep clean to wednesday', event(e));
  const booking = (startsAt: string, status = 'confirmed') => ({
    id: 'BKG-2001',
    customer_id: 'cus_001',
    service_id: 'svc_deep_clean',
    service_name: 'Deep Cleaning',
    crew: 'crew-a',
    starts_at: startsAt,
    ends_at: startsAt,
    price_cents: 28900,
    status,
  });

  it('moved: from the old time to the new one, and the fee', () => {
    const t = after({
      status: 'executed',
      tool: 'reschedule_booking',
      result: {
        booking: booking('2026-12-09T10:00:00-05:00'),
        previous: { starts_at: '2026-12-11T10:00:00-05:00', ends_at: '2026-12-11T14:00:00-05:00', crew: 'crew-a' },
        fee: { fee_cents: 0, notice_hours: 97, rule: 'free: more than 24 hours before the start' },
      },
    });
    expect(t.content).toMatch(/moved/i);
    expect(t.content).toContain('from Fri, Dec 11, 10:00 AM EST to Wed, Dec 9, 10:00 AM EST');
    expect(t.content).toContain('BKG-2001');
    expect(t.content).toMatch(/no fee/i);
  });

  it('cancelled: which booking, and the fee charged', () => {
    const t = after({
      status: 'executed',
      tool: 'cancel_booking',
      args: { customer_id: 'cus_001', booking_id: 'BKG-2001' },
      result: {
        booking: booking('2026-12-08T08:00:00-05:00', 'cancelled'),
        fee: {
          fee_cents: 14450,
          notice_hours: 23,
          rule: 'cancelling within 24 hours of the start costs 50% of the price',
        },
      },
    });
    expect(t.content).toMatch(/cancelled/);
    expect(t.content).toContain('Deep Cleaning on Tue, Dec 8, 8:00 AM EST');
    expect(t.content).toContain('$144.50');
    expect(t.content).not.toMatch(/no fee/i);
  });

  it('rejected or failed: nothing changed, the booking stays as it was', () => {
    const rejected = after({ status: 'rejected', tool: 'reschedule_booking', reason: 'Crew is off that day' });
    expect(rejected.content).toContain('Crew is off that day');
    expect(rejected.content).toMatch(/Nothing was changed/);
    expect(rejected.content).not.toMatch(/moved/i);
    const failed = after({
      status: 'failed',
      tool: 'cancel_booking',
      args: { customer_id: 'cus_001', booking_id: 'BKG-2001' },
      error: { code: 'booking_not_changeable', message: 'BKG-2001 is already cancelled.' },
    });
    expect(failed.content).toMatch(/can't be changed any more/);
    expect(failed.content).toMatch(/Nothing was changed/);
    expect(failed.content).not.toMatch(/is cancelled\./);
  });

  it('rejected or expired after a lookup: says where the booking still is', () => {
    const window = (e: Partial<ApprovalEvent> & Pick<ApprovalEvent, 'status' | 'tool'>, bookings: Upcoming[]) => {
      const ask = 'move my deep clean to wednesday';
      const { window: looked } = converse(kb, [], ask, bookings);
      return plan(kb, ...looked.slice(1), event(e));
    };
    const rejected = window({ status: 'rejected', tool: 'reschedule_booking', reason: 'Crew is off' }, [WINDOW, DEEP]);
    expect(rejected.content).toContain('Deep Cleaning (BKG-2001) is still on Fri, Dec 11, 10:00 AM EST');
    expect(rejected.content).not.toContain('Interior Window Cleaning');
    const cancel = { customer_id: 'cus_001', booking_id: 'BKG-2001' };
    const expired = window({ status: 'expired', tool: 'cancel_booking', args: cancel }, [DEEP]);
    expect(expired.content).toContain('is still on Fri, Dec 11, 10:00 AM EST');
    // No lookup in the window, or a booking it does not show: nothing is claimed about where it is.
    expect(after({ status: 'rejected', tool: 'reschedule_booking' }).content).not.toMatch(/still on/);
    expect(window({ status: 'rejected', tool: 'reschedule_booking' }, [WINDOW]).content).not.toMatch(/still on/);
    // A rejected booking of a new visit has no earlier time to keep.
    const book = { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-09T10:00:00-05:00' };
    expect(window({ status: 'rejected', tool: 'book_slot', args: book }, [DEEP]).content).not.toMatch(/still on/);
  });

  it('failed with alternatives: offered, and the pick proposes the move again', () => {
    const e = event({
      status: 'failed',
      tool: 'reschedule_booking',
      error: {
        code: 'slot_unavailable',
        message: 'Taken meanwhile.',
        details: { alternatives: [{ start_time: '2026-12-09T11:00:00-05:00', label: 'Wed, Dec 9, 11:00 AM EST' }] },
      },
    });
    const told = plan(kb, 'move my deep clean to wednesday', e);
    expect(told.content).toContain('Wed, Dec 9, 11:00 AM EST');
    const t = plan(kb, 'move my deep clean to wednesday', e, reply(told), 'yes please');
    expect(t.calls).toEqual([
      { name: 'reschedule_booking', args: { ...move, new_start_time: '2026-12-09T11:00:00-05:00' } },
    ]);
  });
});

describe('after an approval expired, a yes submits the same request again', () => {
  const bookArgs = { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-08T10:00:00-05:00' };
  const expired = (tool: string, args: Record<string, unknown>) =>
    approvalEventMessage({ approval_id: 'apr_x', tool, args, status: 'expired', edited: false });

  it.each(['yes pls', 'yes please', 'sure', 'ok do it', 'yep', 'yes, submit it again'])('%s', (text) => {
    const e = expired('book_slot', bookArgs);
    const told = plan(kb, 'book a deep clean tuesday at 10', e);
    expect(told.content).toMatch(/Would you like me to submit it again\?/);
    const t = plan(kb, 'book a deep clean tuesday at 10', e, reply(told), text);
    expect(t.calls).toEqual([{ name: 'book_slot', args: bookArgs }]);
  });

  it('a booking change is submitted again with its own tool and arguments', () => {
    const args = { customer_id: 'cus_001', booking_id: 'BKG-2001', reason: 'away' };
    const e = expired('cancel_booking', args);
    const told = plan(kb, 'cancel my deep clean', e);
    expect(plan(kb, 'cancel my deep clean', e, reply(told), 'yes pls').calls).toEqual([
      { name: 'cancel_booking', args },
    ]);
  });

  it('a move whose new time has passed since: the booking is looked up again and a new time asked for', () => {
    const late = makeContext({ now: '2026-12-09T16:00:00.000Z' }); // Wed 11:00, after the asked-for 10:00
    const e = expired('reschedule_booking', {
      customer_id: 'cus_001',
      booking_id: 'BKG-2001',
      new_start_time: '2026-12-09T10:00:00-05:00',
    });
    const told = plan(late, 'move my deep clean to wednesday', e);
    const { first, second } = converse(late, [customer('move my deep clean to wednesday'), e, reply(told)], 'yes pls', [
      WINDOW,
      DEEP,
    ]);
    expect(first.calls.map((c) => c.name)).toEqual(['lookup_customer']);
    expect(second!.calls).toEqual([]);
    expect(second!.content).toMatch(/Wed, Dec 9, 10:00 AM EST has already passed/);
    expect(second!.content).toMatch(/Which day and time would you like your Deep Cleaning moved to\?/);
  });

  it('a time that has passed since is not submitted again: it asks for a new time', () => {
    const late = makeContext({ now: '2026-12-08T16:00:00.000Z' }); // Tue 11:00, after the 10:00 start
    const e = expired('book_slot', bookArgs);
    const told = plan(late, 'book a deep clean tuesday at 10', e);
    const t = plan(late, 'book a deep clean tuesday at 10', e, reply(told), 'yes pls');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/already passed/);
    expect(t.content).toMatch(/\?/);
  });
});

describe('a booking named by its service or its day, moved by days or cancelled', () => {
  it('"push it back by a day? same time" moves the booking named to the next day, with the late fee', () => {
    const { second } = converse(
      kb,
      [],
      "ugh tomorrow's not gonna work for the cleaning after all. can you push it back by a day? same time",
      [SOON, WINDOW, DEEP],
    );
    expect(second!.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-2003', new_start_time: '2026-12-09T08:00:00-05:00' },
      },
    ]);
    expect(second!.content).toContain('$25');
  });

  it('"that <service> thing on <day> - can you do <day> instead? same time" moves that booking', () => {
    const { second } = converse(
      kb,
      [],
      'that window cleaning thing on wednesday - can the guy do thursday instead? same time is fine',
      [SOON, WINDOW, DEEP],
    );
    expect(second!.calls[0]).toMatchObject({
      name: 'reschedule_booking',
      args: { booking_id: 'BKG-2002', new_start_time: '2026-12-10T14:00:00-05:00' },
    });
  });

  it('"the <service> on the <date> … please cancel it" cancels that booking, free a week ahead', () => {
    const { first, second } = converse(
      kb,
      [],
      "we won't be needing the deep clean on the 11th after all. Please cancel it, thank you",
      [SOON, WINDOW, DEEP],
    );
    expect(first.calls.map((c) => c.name)).toEqual(['lookup_customer']);
    expect(second!.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2001' } },
    ]);
    expect(second!.content).toMatch(/no fee/i);
  });

  it('"cancel tomorrow mornings cleaning" cancels tomorrow\'s booking and states the late fee', () => {
    const { second } = converse(kb, [], 'something came up, can you cancel tomorrow mornings cleaning? sorry', [
      SOON,
      WINDOW,
    ]);
    expect(second!.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-2003' } },
    ]);
    expect(second!.content).toContain('$74.50');
  });
});
