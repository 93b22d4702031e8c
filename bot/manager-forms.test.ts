// The manager's forms through the local workspace and the real Bolt app: an edited booking time is
// picked (not typed) and rehearsed before the modal closes; linking a person uses a user picker
// and never silently moves an existing link.
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planContextOf, approvalEventOf } from '../agent/plan-context.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { freeStart } from '../agent/testing/fixtures.js';
import { lastCustomerText } from '../agent/window.js';
import { pickerValues } from './blocks/date-time-fields.js';
import { LINK_CONFIRM_BLOCK, LINK_CUSTOMER_BLOCK, LINK_USER_BLOCK } from './blocks/home.js';
import { TIME_SUFFIX } from './blocks/schema-form.js';
import { ACTIONS } from './ids.js';
import { LOCAL_IDS } from './local-mode.js';
import { botRepliesIn, cardFor, eventReply, hasButtons, startBotStack, TZ, type BotStack } from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MANAGERS = LOCAL_IDS.managers;
const MARIA = 'U01CUS0001'; // cus_001
const PRIYA = 'U01CUS0003'; // cus_003
const DANA = 'U01MGR0001';
const CASEY = 'U01GST0001'; // not linked
const RILEY = 'U01GST0002'; // not linked
const SUNDAY = '2026-12-13';

let s: BotStack;
/** Where the next "book" request asks to start. */
let nextStart = '';
let n = 0;

/** "book" → book_slot (a one-hour handyman visit) at `nextStart`; decisions are echoed back. */
const planner = () =>
  new ScriptedModel((messages: BaseMessage[]) => {
    const last = messages[messages.length - 1]!;
    const event = approvalEventOf(last);
    if (event) return new AIMessage({ content: eventReply(event) });
    if (last.getType() === 'tool') return new AIMessage({ content: 'ok' });
    if (!/\bbook\b/.test(lastCustomerText(messages))) return new AIMessage({ content: 'Answer' });
    const customer = planContextOf(messages)?.customer?.id ?? 'cus_001';
    return new AIMessage({
      content: '',
      tool_calls: [
        {
          id: `call_form_${++n}`,
          name: 'book_slot',
          args: { customer_id: customer, service_id: 'svc_handyman_hour', start_time: nextStart },
          type: 'tool_call',
        },
      ],
    });
  });

beforeAll(async () => {
  s = await startBotStack({ model: planner });
});
afterAll(async () => {
  await s?.close();
});

const waitFor = <T>(fn: () => T | undefined | false | null, ms = 8000) => s.slack.waitFor(fn, ms);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitForDb<T>(fn: () => Promise<T | undefined | false | null>, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('waitForDb timed out');
    await sleep(20);
  }
}
const row = async (id: string) => (await s.db.pool.query(`SELECT * FROM approvals WHERE id = $1`, [id])).rows[0];
const auditOf = async (id: string) =>
  (await s.db.pool.query(`SELECT action FROM audit_log WHERE approval_id = $1 ORDER BY id`, [id])).rows.map(
    (r) => r.action as string,
  );
const bookings = async () => (await s.db.pool.query(`SELECT count(*)::int AS n FROM bookings`)).rows[0].n as number;

/** Maria asks for a visit at `start`; the approval and its card. */
async function proposeVisit(start: string) {
  nextStart = start;
  const post = await s.slack.postAsUser(MARIA, SUPPORT, 'please book a handyman');
  await waitFor(() => botRepliesIn(s.slack, SUPPORT, post.ts)[0]);
  const approval = await waitForDb(
    async () =>
      (await s.db.pool.query(`SELECT * FROM approvals WHERE thread_id = $1`, [`slack:${SUPPORT}:${post.ts}`])).rows[0],
  );
  expect(approval.tool).toBe('book_slot');
  const card = await waitFor(() => cardFor(s.slack, MANAGERS, approval.id));
  return { post, approval, card };
}

async function openEdit(manager: string, cardTs: string) {
  await s.slack.click(manager, MANAGERS, cardTs, ACTIONS.edit);
  const [modal] = await waitFor(() => s.slack.openViews(manager).length === 1 && s.slack.openViews(manager));
  return modal!;
}

type El = { type: string; initial_date?: string; initial_time?: string };
const elementOf = (blocks: { block_id?: string }[], id: string) =>
  (blocks.find((b) => b.block_id === id) as unknown as { element: El } | undefined)?.element;

describe('Edit and approve: booking times', () => {
  it('a Sunday is refused inline with free times; the approval stays pending and its card live', async () => {
    const start = await freeStart(s.db.pool, 1);
    const { approval, card } = await proposeVisit(start);
    const modal = await openEdit(DANA, card.ts);
    const shown = pickerValues(start, TZ)!;
    expect(elementOf(modal.blocks, 'start_time')).toMatchObject({ type: 'datepicker', initial_date: shown.date });
    expect(elementOf(modal.blocks, `start_time${TIME_SUFFIX}`)).toMatchObject({
      type: 'timepicker',
      initial_time: shown.time,
    });
    expect(modal.blocks.some((b) => b.block_id === 'customer_id')).toBe(false);
    const before = await bookings();

    const sunday = await s.slack.submitView(DANA, modal.id, {
      start_time: { value: SUNDAY },
      [`start_time${TIME_SUFFIX}`]: { value: '10:00' },
    });
    expect(sunday.outcome).toBe('errors');
    const errors = (sunday.response as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors)).toEqual(['start_time']);
    expect(errors.start_time).toMatch(/Sun, Dec 13.*no visits on that day/);
    expect(errors.start_time).toMatch(/Free times nearby: \w{3}, Dec \d+/);

    expect(s.slack.openViews(DANA).map((v) => v.id)).toEqual([modal.id]); // still open, to pick again
    expect((await row(approval.id)).status).toBe('pending');
    expect(await auditOf(approval.id)).toEqual(['proposed']);
    expect(await bookings()).toBe(before);
    expect(hasButtons(cardFor(s.slack, MANAGERS, approval.id))).toBe(true);

    // Nothing was used up: a plain Approve on the card still works.
    await s.slack.closeView(DANA, modal.id);
    await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve);
    await waitForDb(async () => (await row(approval.id)).status === 'executed');
    expect((await row(approval.id)).args.start_time).toBe(start);
  });

  it('a picked day and time become ISO 8601 with the business offset, and run as edited', async () => {
    const { approval, card } = await proposeVisit(await freeStart(s.db.pool, 1));
    const modal = await openEdit(DANA, card.ts);
    const target = pickerValues(await freeStart(s.db.pool, 1, 5), TZ)!;
    const ok = await s.slack.submitView(DANA, modal.id, {
      start_time: { value: target.date },
      [`start_time${TIME_SUFFIX}`]: { value: target.time },
    });
    expect(ok.outcome, JSON.stringify(ok.response)).toBe('closed');
    const done = await waitForDb(async () => {
      const r = await row(approval.id);
      return r.status === 'executed' && r;
    });
    expect(done.args.start_time).toBe(`${target.date}T${target.time}:00-05:00`);
    expect(done.args.customer_id).toBe('cus_001');
    expect(await auditOf(approval.id)).toEqual(['proposed', 'edited', 'approved', 'executed']);
  });
});

const linkOf = async (user: string) =>
  (await s.db.pool.query(`SELECT customer_id, linked_by FROM slack_identities WHERE slack_user_id = $1`, [user]))
    .rows[0];

async function openLinkForm(manager: string) {
  for (const v of s.slack.openViews(manager).reverse()) await s.slack.closeView(manager, v.id);
  await s.slack.openHome(manager);
  await waitFor(() => s.slack.homeView(manager));
  await s.slack.click(manager, 'home', '', ACTIONS.homeLink);
  const [modal] = await waitFor(() => s.slack.openViews(manager).length === 1 && s.slack.openViews(manager));
  return modal!;
}
const errorsOf = (r: { response: unknown }) => (r.response as { errors: Record<string, string> }).errors;

describe('Link a Slack user to a customer', () => {
  it('picks the person with a user picker and links them', async () => {
    const modal = await openLinkForm(DANA);
    expect(elementOf(modal.blocks, LINK_USER_BLOCK)).toMatchObject({ type: 'users_select' });
    const bot = await s.slack.submitView(DANA, modal.id, {
      [LINK_USER_BLOCK]: { value: LOCAL_IDS.botUserId },
      [LINK_CUSTOMER_BLOCK]: { value: 'cus_010' },
    });
    expect(bot.outcome).toBe('errors');
    expect(errorsOf(bot)[LINK_USER_BLOCK]).toMatch(/bot, not a person/);
    const ok = await s.slack.submitView(DANA, modal.id, {
      [LINK_USER_BLOCK]: { value: CASEY },
      [LINK_CUSTOMER_BLOCK]: { value: 'cus_010' },
    });
    expect(ok.outcome).toBe('updated');
    expect(await linkOf(CASEY)).toEqual({ customer_id: 'cus_010', linked_by: `slack:${DANA}` });
  });

  it('warns inline that the person is already linked, and relinks only once confirmed', async () => {
    const modal = await openLinkForm(DANA);
    const first = await s.slack.submitView(DANA, modal.id, {
      [LINK_USER_BLOCK]: { value: MARIA },
      [LINK_CUSTOMER_BLOCK]: { value: 'cus_010' },
    });
    expect(first.outcome).toBe('errors');
    expect(errorsOf(first)[LINK_USER_BLOCK]).toMatch(/already linked to Maria Gonzalez \(cus_001\)/);
    expect(errorsOf(first)[LINK_CONFIRM_BLOCK]).toMatch(/tick/i);
    expect(await linkOf(MARIA)).toMatchObject({ customer_id: 'cus_001' }); // never silently relinked

    // Submitting the same again without the confirmation changes nothing either.
    const again = await s.slack.submitView(DANA, modal.id, {});
    expect(again.outcome).toBe('errors');
    expect(await linkOf(MARIA)).toMatchObject({ customer_id: 'cus_001' });

    const confirmed = await s.slack.submitView(DANA, modal.id, { [LINK_CONFIRM_BLOCK]: { value: ['relink'] } });
    expect(confirmed.outcome).toBe('updated');
    expect(JSON.stringify((confirmed.response as { view: unknown }).view)).toContain('was `cus_001`');
    expect(await linkOf(MARIA)).toEqual({ customer_id: 'cus_010', linked_by: `slack:${DANA}` });
    const audit = (
      await s.db.pool.query(
        `SELECT details FROM audit_log WHERE action = 'slack_identity_linked' AND details->>'slack_user_id' = $1`,
        [MARIA],
      )
    ).rows;
    expect(audit).toEqual([{ details: expect.objectContaining({ previous_customer_id: 'cus_001' }) }]);
  });

  it('warns that the customer is linked to someone else; confirmed, both stay linked', async () => {
    const modal = await openLinkForm(DANA);
    const first = await s.slack.submitView(DANA, modal.id, {
      [LINK_USER_BLOCK]: { value: RILEY },
      [LINK_CUSTOMER_BLOCK]: { value: 'cus_003' },
    });
    expect(first.outcome).toBe('errors');
    expect(Object.keys(errorsOf(first)).sort()).toEqual([LINK_CONFIRM_BLOCK, LINK_CUSTOMER_BLOCK].sort());
    expect(errorsOf(first)[LINK_CUSTOMER_BLOCK]).toMatch(/already linked to .*Priya/);
    expect(await linkOf(RILEY)).toBeUndefined();
    const confirmed = await s.slack.submitView(DANA, modal.id, { [LINK_CONFIRM_BLOCK]: { value: ['relink'] } });
    expect(confirmed.outcome).toBe('updated');
    expect(await linkOf(RILEY)).toMatchObject({ customer_id: 'cus_003' });
    expect(await linkOf(PRIYA)).toMatchObject({ customer_id: 'cus_003' });
  });
});
