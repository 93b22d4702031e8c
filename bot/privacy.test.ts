// Promise 9 through the real product and the local workspace: two customers in one shared #support
// channel. Whatever one customer's replies hold of their record (phone, email, address, bookings,
// their requests) reaches them by direct message; the channel, as any member reads it, never shows it.
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalEventOf, planContextOf } from '../agent/plan-context.js';
import { call, freeStart, propose, say } from '../agent/testing/fixtures.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { lastCustomerText, textOf } from '../agent/window.js';
import type { StoredMessage } from '../local-slack/index.js';
import { ACTIONS } from './ids.js';
import { LOCAL_IDS } from './local-mode.js';
import { SENT_PRIVATELY_NOTE } from './replies.js';
import { botRepliesIn, cardFor, startBotStack, textOfMessage, type BotStack } from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MANAGERS = LOCAL_IDS.managers;
const MARIA = 'U01CUS0001'; // cus_001
const JAMES = 'U01CUS0002'; // cus_002
const DANA = 'U01MGR0001';

/** Reads the record with a lookup and says all of it; proposes phone changes and bookings; answers hours. */
const privacyModel = () =>
  new ScriptedModel((messages: BaseMessage[]) => {
    const last = messages[messages.length - 1]!;
    const event = approvalEventOf(last);
    if (event) {
      const booking = (event.result as { booking?: { id: string } } | undefined)?.booking;
      return say(booking ? `You're booked: ${booking.id}.` : `Update on your request: ${event.status}.`);
    }
    if (ToolMessage.isInstance(last)) {
      const r = JSON.parse(textOf(last)) as {
        customer?: { phone: string; email: string; address: { line1: string } };
        upcoming_bookings?: { id: string }[];
      };
      const c = r.customer!;
      const bookings = (r.upcoming_bookings ?? []).map((b) => b.id).join(', ') || 'none';
      return say(`On file: phone ${c.phone}, email ${c.email}, address ${c.address.line1}. Bookings: ${bookings}.`);
    }
    const text = lastCustomerText(messages);
    const customer = planContextOf(messages)?.customer?.id ?? 'nobody';
    if (/on file/.test(text)) return propose(call('lookup_customer', { customer_id: customer }));
    const phone = /change my phone to (\S+)/.exec(text)?.[1];
    if (phone) return propose(call('update_customer', { customer_id: customer, changes: { phone } }));
    const at = /book a window clean at (\S+)/.exec(text)?.[1];
    if (at)
      return propose(call('book_slot', { customer_id: customer, service_id: 'svc_window_clean', start_time: at }));
    return say('We are open 8 AM to 6 PM, Monday to Saturday.');
  });

let s: BotStack;
beforeAll(async () => {
  s = await startBotStack({ model: privacyModel });
});
afterAll(async () => {
  await s?.close();
});

const waitFor = <T>(fn: () => T | undefined | false | null, ms = 8000) => s.slack.waitFor(fn, ms);
// A user id names that user's DM with the app in the local workspace.
const botDms = (user: string) => s.slack.messages(user).filter((m) => m.bot_id);

/** The channel as any member reads it: every message, and every thread's replies. */
const channelAsMemberSees = (channel: string): StoredMessage[] =>
  s.slack.messages(channel).flatMap((m) => [m, ...s.slack.messages(channel, { thread_ts: m.ts }).slice(1)]);

/** Everything James can read: the channel, his ephemerals, his DM with the app. */
const jamesSees = () =>
  [...channelAsMemberSees(SUPPORT), ...s.slack.ephemerals(JAMES), ...s.slack.messages(JAMES)]
    .map(textOfMessage)
    .join('\n');

async function record(customerId: string) {
  const c = (await s.db.pool.query(`SELECT email, phone, address_line1 FROM customers WHERE id = $1`, [customerId]))
    .rows[0] as { email: string; phone: string; address_line1: string };
  const bookings = (await s.db.pool.query(`SELECT id FROM bookings WHERE customer_id = $1`, [customerId])).rows.map(
    (r) => r.id as string,
  );
  return { ...c, bookings };
}
const digits = (t: string) => t.replace(/\D/g, '');
const showsPhone = (text: string, phone: string) =>
  (text.match(/\d[\d\s().+-]*\d/g) ?? []).some((run) => digits(run).includes(digits(phone).slice(-10)));

/** Post in the support channel and wait for the bot's first reply in that thread. */
async function ask(user: string, text: string, opts: { thread_ts?: string; channel?: string } = {}) {
  const channel = opts.channel ?? SUPPORT;
  const before = opts.thread_ts ? botRepliesIn(s.slack, channel, opts.thread_ts).length : 0;
  const post = await s.slack.postAsUser(user, channel, text, { thread_ts: opts.thread_ts });
  const root = opts.thread_ts ?? post.ts;
  const reply = await waitFor(() => botRepliesIn(s.slack, channel, root)[before]);
  return { root, reply };
}

describe('two customers in one shared support channel', () => {
  it('phone on file: the thread gets a note, the details come by DM, the other customer sees none', async () => {
    const maria = await record('cus_001');
    const dmsBefore = botDms(MARIA).length;
    const { reply } = await ask(MARIA, 'what phone number do you have on file for me?');
    expect(reply.text).toBe(SENT_PRIVATELY_NOTE);
    const dm = await waitFor(() => botDms(MARIA)[dmsBefore]);
    expect(showsPhone(dm.text, maria.phone)).toBe(true);
    expect(dm.text).toContain(maria.email);
    expect(dm.text).toContain(maria.address_line1);
    for (const id of maria.bookings) expect(dm.text).toContain(id);

    const seen = jamesSees();
    expect(showsPhone(seen, maria.phone)).toBe(false);
    expect(seen).not.toContain(maria.email);
    expect(seen).not.toContain(maria.address_line1);
    for (const id of maria.bookings) expect(seen).not.toContain(id);
  });

  it('a phone change: the request goes to the managers card, its wording to the customer by DM', async () => {
    const newPhone = '555-404-2211';
    const dmsBefore = botDms(MARIA).length;
    const { root, reply } = await ask(MARIA, `please change my phone to ${newPhone}`);
    expect(reply.text).toBe(SENT_PRIVATELY_NOTE);
    const dm = await waitFor(() => botDms(MARIA)[dmsBefore]);
    expect(dm.text).toMatch(/sent this request to our team for approval/);
    expect(dm.text).toContain(newPhone);
    const approval = (
      await s.db.pool.query(`SELECT id FROM approvals WHERE thread_id = $1`, [`slack:${SUPPORT}:${root}`])
    ).rows[0] as { id: string };
    // The manager card is where it always was: the managers channel.
    await waitFor(() => cardFor(s.slack, MANAGERS, approval.id));
    // Nothing the bot posted in the channel repeats it (Maria's own message does: she wrote it there).
    const botTexts = channelAsMemberSees(SUPPORT)
      .filter((m) => m.bot_id)
      .map(textOfMessage)
      .join('\n');
    expect(showsPhone(botTexts, newPhone)).toBe(false);
    expect(textOfMessage(cardFor(s.slack, MANAGERS, approval.id))).toContain(newPhone);
  });

  it('a booking: proposal and outcome (with its id) by DM; a knowledge answer stays in the thread', async () => {
    const start = await freeStart(s.db.pool, 2);
    const dmsBefore = botDms(MARIA).length;
    const { root, reply } = await ask(MARIA, `book a window clean at ${start}`);
    expect(reply.text).toBe(SENT_PRIVATELY_NOTE);
    await waitFor(() => botDms(MARIA)[dmsBefore]);
    const approval = (
      await s.db.pool.query(`SELECT id FROM approvals WHERE thread_id = $1`, [`slack:${SUPPORT}:${root}`])
    ).rows[0] as { id: string };
    const card = await waitFor(() => cardFor(s.slack, MANAGERS, approval.id));
    expect((await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve)).status).toBe(200);
    const told = await waitFor(() => botDms(MARIA).find((m) => /You're booked: BKG-/.test(m.text)));
    const bookingId = /BKG-\d+/.exec(told.text)![0];
    await waitFor(() => botRepliesIn(s.slack, SUPPORT, root).length >= 2 && true);
    expect(botRepliesIn(s.slack, SUPPORT, root).map((m) => m.text)).toEqual([SENT_PRIVATELY_NOTE, SENT_PRIVATELY_NOTE]);
    expect(jamesSees()).not.toContain(bookingId);

    // James's own question has nothing of anyone's record: answered in his thread.
    const james = await ask(JAMES, 'what are your opening hours?');
    expect(james.reply.text).toBe('We are open 8 AM to 6 PM, Monday to Saturday.');
    expect(jamesSees()).not.toContain(bookingId);
  });

  it("the other customer asking for the phone on file gets their own by DM, never the first one's", async () => {
    const [maria, james] = [await record('cus_001'), await record('cus_002')];
    const dmsBefore = botDms(JAMES).length;
    await ask(JAMES, 'what phone number do you have on file for me?');
    const dm = await waitFor(() => botDms(JAMES)[dmsBefore]);
    expect(showsPhone(dm.text, james.phone)).toBe(true);
    const seen = jamesSees();
    expect(showsPhone(seen, maria.phone)).toBe(false);
    expect(seen).not.toContain(maria.email);
  });

  it('in a direct message everything is answered right there', async () => {
    const maria = await record('cus_001');
    const dm = await s.slack.sendDirectMessage(MARIA, 'what phone number do you have on file for me?');
    const reply = await waitFor(() => botRepliesIn(s.slack, dm.channel, dm.ts)[0]);
    expect(showsPhone(reply.text, maria.phone)).toBe(true);
  });
});

describe('a channel private to one customer (SLACK_PRIVATE_CHANNELS)', () => {
  let p: BotStack;
  beforeAll(async () => {
    p = await startBotStack({ model: privacyModel, config: { SLACK_PRIVATE_CHANNELS: SUPPORT } });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('keeps personal replies in the thread', async () => {
    const phone = (await p.db.pool.query(`SELECT phone FROM customers WHERE id = 'cus_001'`)).rows[0].phone as string;
    const post = await p.slack.postAsUser(MARIA, SUPPORT, 'what phone number do you have on file for me?');
    const reply = await p.slack.waitFor(() => botRepliesIn(p.slack, SUPPORT, post.ts)[0], 8000);
    expect(showsPhone(reply.text, phone)).toBe(true);
    expect(p.slack.messages(MARIA).filter((m) => m.bot_id)).toEqual([]);
  });
});
