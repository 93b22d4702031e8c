import type { BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../../plan-context.js';
import { detectCues, isInformationQuestion } from './analysis/cues.js';
import { extractAddress, reportsProblem, triage } from './analysis/entities.js';
import { segments } from './analysis/segments.js';
import { extractNoteRequest } from './intents/contact-change.js';
import { planTurn, toAIMessage } from './planner.js';
import {
  ARTICLES,
  callNames,
  customer,
  lookupFound,
  MARIA,
  plan,
  seedContext,
  system,
  toolResult,
  type Upcoming,
} from './testing.js';

/*
 * Several writes in one message: every part that asks for a change becomes its own proposal, with
 * only the arguments its own words give. The clock is Monday 2026-12-07 09:00 in New York.
 */

const ctx = seedContext();

const FAN_SAT: Upcoming = {
  id: 'BKG-3001',
  service_id: 'svc_ceiling_fan_install',
  service_name: 'Ceiling Fan Installation',
  starts_at: '2026-12-12T09:00:00-05:00',
};
const WINDOWS_19TH: Upcoming = {
  id: 'BKG-3002',
  service_id: 'svc_window_clean',
  service_name: 'Interior Window Cleaning',
  starts_at: '2026-12-19T10:00:00-05:00',
};
const WINDOWS_TUE: Upcoming = {
  id: 'BKG-3003',
  service_id: 'svc_window_clean',
  service_name: 'Interior Window Cleaning',
  starts_at: '2026-12-08T14:00:00-05:00',
};

/** Maria's record without a phone on file. */
const NO_PHONE = { ...MARIA, phone: null };

/** The planner's turn, and after it the turn once every call has its result (writes wait for approval). */
function converse(c: PlanContext, text: string, bookings: Upcoming[]) {
  const window: BaseMessage[] = [system(c), customer(text)];
  const first = planTurn(window);
  const ai = toAIMessage(first, window, 'thread-test');
  const results = ai.tool_calls!.map((call, i) =>
    toolResult(
      call.id!,
      call.name,
      call.name === 'lookup_customer'
        ? lookupFound(bookings, NO_PHONE)
        : { status: 'pending_approval', approval_id: `apr_${i}` },
    ),
  );
  const second = planTurn([...window, ai, ...results]);
  return { first, second };
}

describe('segments: numbered items', () => {
  it('"2 things 1) … 2) …" is one segment per item', () => {
    expect(segments('2 things 1) can you email me the prices 2) new address: 9 Elm Rd, Maple Harbor MH 1024')).toEqual([
      '2 things',
      'can you email me the prices',
      'new address: 9 Elm Rd, Maple Harbor MH 1024',
    ]);
  });
  it('a bare number in a sentence is not an item', () => {
    expect(segments('book a deep clean friday at 9 for 2 people')).toEqual([
      'book a deep clean friday at 9 for 2 people',
    ]);
  });
});

describe('the readers each part relies on', () => {
  it('"what i actually want is the tv put up" asks for a job, not a question', () => {
    const t = 'what i actually want is the tv put up on the wall';
    expect(isInformationQuestion(t)).toBe(false);
    expect(detectCues(t).book.weak).toBe(true);
    expect(isInformationQuestion('what do i need to do before the clean?')).toBe(true);
  });
  it('a time that no longer suits is no fault; a thing that does not work still is', () => {
    expect(reportsProblem("tomorrow at 2 doesn't work anymore, can we shift it to thursday same time")).toBe(false);
    expect(reportsProblem("that time won't work for me")).toBe(false);
    expect(reportsProblem("the thermostat you installed doesn't work")).toBe(true);
  });
  it('a thing that arrived damaged is the reason for a change, not damage to report', () => {
    expect(reportsProblem('the fan came damaged in the box so cancel the install on the 18th pls')).toBe(false);
    expect(reportsProblem('your guy damaged the fan')).toBe(true);
  });
  it('a complaint about the last clean of a kind is a complaint, whatever else the message asks', () => {
    const t = "last window clean left streaks everywhere. also tomorrow at 2 doesn't work, can we shift it";
    expect(triage(t).category).toBe('complaint');
  });
  it('a fear that the fault will hurt someone raises the priority', () => {
    expect(triage('the fan your guy put in wobbles. honestly worried itll come down').priority).toBe('high');
    expect(triage('the fan your guy put in wobbles a bit').priority).toBe('normal');
  });
  it('"update my notes - …" is a note with the words after the dash', () => {
    expect(extractNoteRequest('and update my notes - the rabbit lives in the spare room now')).toBe(
      'The rabbit lives in the spare room now',
    );
    expect(extractNoteRequest('can you update my notes')).toBeUndefined();
  });
  it('a neighbourhood in brackets after the postal code is left out of the address', () => {
    expect(extractAddress('new address: 9 Elm Rd, Maple Harbor MH 1024 (by the park)')).toEqual({
      ok: true,
      address: { line1: '9 Elm Rd', city: 'Maple Harbor', postal_code: 'MH 1024' },
    });
  });
});

describe('each write of a message is its own proposal', () => {
  it('a cancellation and a new booking on another day: the day of the booking does not pick the one cancelled', () => {
    const { first, second } = converse(
      ctx,
      'changed my mind on the ceiling fan saturday, cancel that one. what i actually want is the tv put up on ' +
        'the wall instead — saturday the 19th at 11?',
      [FAN_SAT, WINDOWS_19TH],
    );
    expect(callNames(first)).toEqual(['lookup_customer', 'book_slot']);
    expect(first.calls[1]!.args).toMatchObject({ service_id: 'svc_tv_mount', start_time: '2026-12-19T11:00:00-05:00' });
    expect(second.calls).toEqual([
      { name: 'cancel_booking', args: { customer_id: 'cus_001', booking_id: 'BKG-3001' } },
    ]);
  });

  it('a complaint and a move: a ticket, and the move read from its own part', () => {
    const { first, second } = converse(
      ctx,
      'not thrilled tbh - last window clean left streaks all over the glass, had to redo half of it myself. ' +
        "also tomorrow at 2 doesn't work anymore, can we shift it to thursday same time",
      [WINDOWS_TUE],
    );
    expect(callNames(first)).toEqual(['lookup_customer', 'create_ticket']);
    expect(first.calls[1]!.args).toMatchObject({ category: 'complaint' });
    expect(second.calls).toEqual([
      {
        name: 'reschedule_booking',
        args: { customer_id: 'cus_001', booking_id: 'BKG-3003', new_start_time: '2026-12-10T14:00:00-05:00' },
      },
    ]);
  });

  it('a fault of something we installed and a booking of another service: the booking keeps its own service', () => {
    const t = plan(
      ctx,
      'the ceiling fan your guy put in a couple months back now wobbles like crazy. ' +
        'separate thing: can i get the windows done inside this thursday at 3',
    );
    expect(callNames(t).sort()).toEqual(['book_slot', 'create_ticket']);
    expect(t.calls.find((c) => c.name === 'book_slot')!.args).toMatchObject({
      service_id: 'svc_window_clean',
      start_time: '2026-12-10T15:00:00-05:00',
    });
  });

  it('a booking, an email and a note in one list: three proposals', () => {
    const t = plan(
      ctx,
      'ok three things: book a deep clean fri the 18th at 9, email me the booking details, and update my notes - ' +
        'the rabbit lives in the spare room now',
    );
    expect(callNames(t)).toEqual(['book_slot', 'update_customer', 'send_email']);
    expect(t.calls[1]!.args).toEqual({
      customer_id: 'cus_001',
      changes: { notes: 'The rabbit lives in the spare room now' },
    });
  });

  it('"send receipts to x@y from now on" changes the email on file; "send the receipt to x@y" asks first', () => {
    const standing = plan(ctx, 'and send receipts to maria.work@example.com from now on');
    expect(standing.calls).toEqual([
      { name: 'update_customer', args: { customer_id: 'cus_001', changes: { email: 'maria.work@example.com' } } },
    ]);
    const once = plan(ctx, 'send the receipt to maria.work@example.com');
    expect(callNames(once)).not.toContain('update_customer');
  });

  it('"email me your refund policy" emails the help-centre article that answers it', () => {
    const t = plan(seedContext({ retrieved: [ARTICLES.refunds] }), 'can you email me your refund policy');
    expect(callNames(t)).toEqual(['send_email']);
    expect(t.calls[0]!.args.subject).toContain('Refunds');
    expect(String(t.calls[0]!.args.body)).toContain('within 2 business days');
    const vague = plan(seedContext({ retrieved: [ARTICLES.refunds] }), 'can you email me the details?');
    expect(vague.calls).toEqual([]);
    const none = plan(ctx, 'can you email me your refund policy');
    expect(none.calls).toEqual([]);
  });
});
