// The rehearsal of a manager's edit, on its own: a fake tool server answers the dry run, so every
// refusal and its mapping onto the edited field is checked without a database.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import type { CallMeta } from '../../schema/tools/call-meta.js';
import { ToolServerUnavailableError, type ToolCallOutcome } from '../tool-client.js';
import { LedgerError, type Approval } from './ledger.js';
import { CUSTOMER_FIXED, rehearseEdit } from './rehearse-edit.js';

const TUESDAY_10 = '2026-12-08T10:00:00-05:00';
const SUNDAY_10 = '2026-12-13T10:00:00-05:00';

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

/** A tool server that answers every call with `answer` and remembers what it was asked. */
function fakeTools(answer: (name: string, args: Record<string, unknown>) => Promise<ToolCallOutcome>) {
  const calls: { name: string; args: Record<string, unknown>; meta: CallMeta }[] = [];
  return {
    calls,
    tools: {
      call: async (name: string, args: Record<string, unknown>, meta: CallMeta) => {
        calls.push({ name, args, meta });
        return answer(name, args);
      },
    },
  };
}

const booking = approval('book_slot', { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: TUESDAY_10 });
const refused = (code: string, message: string, details: Record<string, unknown> = {}) =>
  (async () => ({ ok: false, error: { code, message, details } })) as () => Promise<ToolCallOutcome>;

async function refusal(p: Promise<unknown>): Promise<LedgerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LedgerError);
  return err as LedgerError;
}

describe('rehearseEdit', () => {
  it('passes an edit the tool accepts, rehearsed in the approval customer’s scope', async () => {
    const { tools, calls } = fakeTools(async () => ({ ok: true, result: { booking: { id: 'BKG-1' } } }));
    const edited = { ...booking.args, start_time: '2026-12-09T11:00:00-05:00' };
    const out = await rehearseEdit({ tools, logger: silentLogger }, booking, edited);
    expect(out.args).toEqual(edited);
    expect(out.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(calls).toEqual([
      {
        name: 'book_slot',
        args: edited,
        meta: {
          thread_id: booking.thread_id,
          customer_id: 'cus_001',
          approval_id: booking.id,
          dry_run: true,
        },
      },
    ]);
  });

  it('refuses what the schema refuses without asking the tool server', async () => {
    const { tools, calls } = fakeTools(async () => ({ ok: true, result: {} }));
    const err = await refusal(
      rehearseEdit({ tools, logger: silentLogger }, booking, { ...booking.args, start_time: 'tomorrow' }),
    );
    expect(err.code).toBe('invalid_arguments');
    expect(err.issues?.map((i) => i.path)).toEqual(['start_time']);
    expect(calls).toEqual([]);
  });

  it('never lets an edit change the customer of a request', async () => {
    const { tools, calls } = fakeTools(async () => ({ ok: true, result: {} }));
    const err = await refusal(
      rehearseEdit({ tools, logger: silentLogger }, booking, { ...booking.args, customer_id: 'cus_002' }),
    );
    expect(err.code).toBe('invalid_arguments');
    expect(err.issues).toEqual([{ path: 'customer_id', message: CUSTOMER_FIXED }]);
    expect(CUSTOMER_FIXED).toMatch(/customer of a request can't be changed/);
    expect(calls).toEqual([]);
    // Leaving customer_id out is no way around it: the schema requires it.
    const { customer_id: _c, ...rest } = booking.args;
    expect((await refusal(rehearseEdit({ tools, logger: silentLogger }, booking, rest))).issues?.[0]?.path).toBe(
      'customer_id',
    );
  });

  it('a closed day: the tool’s words and its alternatives, on the start time', async () => {
    const alternatives = [{ start_time: '2026-12-14T08:00:00-05:00', display: 'Mon, Dec 14, 8:00 AM EST' }];
    const { tools } = fakeTools(
      refused('outside_business_hours', 'Sun, Dec 13 is outside our visit hours. We have no visits that day.', {
        field: 'start_time',
        alternatives,
      }),
    );
    const err = await refusal(
      rehearseEdit({ tools, logger: silentLogger }, booking, { ...booking.args, start_time: SUNDAY_10 }),
    );
    expect(err.code).toBe('invalid_arguments');
    expect(err.approval?.id).toBe(booking.id);
    expect(err.issues).toEqual([
      {
        path: 'start_time',
        code: 'outside_business_hours',
        message: 'Sun, Dec 13 is outside our visit hours. We have no visits that day.',
        alternatives,
      },
    ]);
  });

  // The tool's refusal names the argument it is about (details.field), as the tool server sends it.
  it('maps each refusal to the field it is about', async () => {
    const move = approval('reschedule_booking', {
      customer_id: 'cus_001',
      booking_id: 'BKG-1001',
      new_start_time: TUESDAY_10,
    });
    const update = approval('update_customer', { customer_id: 'cus_001', changes: { email: 'a@b.co' } });
    const email = approval('send_email', { customer_id: 'cus_001', to: 'x@y.co', subject: 'Hi', body: 'Hello' });
    const cases: [Approval, () => Promise<ToolCallOutcome>, string][] = [
      [move, refused('slot_unavailable', 'taken', { field: 'new_start_time', alternatives: [] }), 'new_start_time'],
      [move, refused('slot_in_past', 'past', { field: 'new_start_time' }), 'new_start_time'],
      [move, refused('booking_not_changeable', 'cancelled', { booking_id: 'BKG-1001' }), 'booking_id'],
      [move, refused('not_found', 'no such booking', { booking_id: 'BKG-1001' }), 'booking_id'],
      [move, refused('out_of_scope', 'not theirs', { booking_id: 'BKG-1001' }), 'booking_id'],
      [booking, refused('not_found', 'no such service', { service_id: 'svc_deep_clean' }), 'service_id'],
      [update, refused('conflict', 'email taken', { field: 'email' }), 'changes.email'],
      [email, refused('out_of_scope', 'only the address on file', { customer_id: 'cus_001', field: 'to' }), 'to'],
      [email, refused('no_email_on_file', 'no email', { customer_id: 'cus_001' }), ''],
    ];
    for (const [a, answer, path] of cases) {
      const { tools } = fakeTools(answer);
      const err = await refusal(rehearseEdit({ tools, logger: silentLogger }, a, a.args));
      expect(err.code, `${a.tool} ${path}`).toBe('invalid_arguments');
      expect(
        err.issues?.map((i) => i.path),
        `${a.tool}`,
      ).toEqual([path]);
    }
    // The tool server's own schema issues come back on their paths.
    const { tools } = fakeTools(
      refused('invalid_arguments', 'bad', { issues: [{ path: 'changes.email', message: 'not an email' }] }),
    );
    const err = await refusal(rehearseEdit({ tools, logger: silentLogger }, update, update.args));
    expect(err.issues).toEqual([{ path: 'changes.email', code: 'invalid_arguments', message: 'not an email' }]);
  });

  it('refuses with a retry-later error when the rehearsal could not run, never approving unrehearsed', async () => {
    const down = fakeTools(async () => {
      throw new ToolServerUnavailableError('The tool server is unavailable (down).', {
        tool: 'book_slot',
        sent: false,
      });
    });
    const slow = fakeTools(() => new Promise<ToolCallOutcome>(() => undefined));
    const broken = fakeTools(refused('internal', 'The tool failed unexpectedly; nothing was changed.'));
    for (const [what, deps] of [
      ['down', { tools: down.tools, logger: silentLogger }],
      ['slow', { tools: slow.tools, logger: silentLogger, timeoutMs: 30 }],
      ['internal', { tools: broken.tools, logger: silentLogger }],
      ['no tool server', { logger: silentLogger }],
    ] as const) {
      const err = await refusal(rehearseEdit(deps, booking, booking.args));
      expect(err.code, what).toBe('rehearsal_unavailable');
      expect(err.message, what).toMatch(/try again/i);
      expect(err.message, what).toMatch(/nothing was approved/i);
    }
  });
});
