// The Slack bot over real HTTP: the local workspace signs and delivers events and clicks to the
// real product (agent, ledger, tool server, Postgres), and we read what people would see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from './ids.js';
import { NOT_A_MANAGER, NOT_FOUND } from './decisions.js';
import { LOCAL_IDS } from './local-mode.js';
import { signSlackRequest } from '../local-slack/index.js';
import { OTHER_CUSTOMER, WORKING_REACTION } from './listeners/messages/customer-message.js';
import { SENT_PRIVATELY_NOTE } from './replies.js';
import {
  botRepliesIn,
  cardFor,
  hasButtons,
  startBotStack,
  textOfMessage,
  toldCustomer,
  type BotStack,
} from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MANAGERS = LOCAL_IDS.managers;
const MARIA = 'U01CUS0001'; // cus_001 Maria Gonzalez
const JAMES = 'U01CUS0002'; // cus_002 James Whitaker
const PRIYA = 'U01CUS0003';
const DANA = 'U01MGR0001';
const OWEN = 'U01MGR0002';
const CASEY = 'U01GST0001'; // not linked to any customer
const RILEY = 'U01GST0002';

let s: BotStack;
beforeAll(async () => {
  s = await startBotStack({ cueDelayMs: 150 });
});
afterAll(async () => {
  await s?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = <T>(fn: () => T | undefined | false | null, ms = 8000) => s.slack.waitFor(fn, ms);
/**
 * A card follows its decision through the card outbox at the managers' channel's Slack pace (after
 * the customer has been told), so a busy runner can take longer than a reply does.
 */
const CARD_MS = 20_000;
async function waitForDb<T>(fn: () => Promise<T | undefined | false | null>, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('waitForDb timed out');
    await sleep(20);
  }
}

/** Post as a person and wait for the bot's first reply in that thread. */
async function ask(user: string, text: string, opts: { channel?: string; thread_ts?: string } = {}) {
  const channel = opts.channel ?? SUPPORT;
  const before = opts.thread_ts ? botRepliesIn(s.slack, channel, opts.thread_ts).length : 0;
  const post = await s.slack.postAsUser(user, channel, text, { thread_ts: opts.thread_ts });
  const root = opts.thread_ts ?? post.ts;
  const reply = await waitFor(() => botRepliesIn(s.slack, channel, root)[before]);
  return { ...post, root, reply };
}

const threadOf = (ts: string, channel: string = SUPPORT) => `slack:${channel}:${ts}`;

async function approvalOf(threadTs: string) {
  return waitForDb(
    async () =>
      (
        await s.db.pool.query(`SELECT * FROM approvals WHERE thread_id = $1 ORDER BY created_at DESC`, [
          threadOf(threadTs),
        ])
      ).rows[0],
  );
}

async function cardOf(approvalId: string) {
  return waitFor(() => cardFor(s.slack, MANAGERS, approvalId));
}

/** A write request from Maria: its approval row and its card in #managers. */
async function proposeEmailChange(user: string, email: string) {
  const asked = await ask(user, `Hi, please change my email to ${email}`);
  // #support is shared: the thread gets a note, the request's wording goes to the customer by DM.
  expect(asked.reply.text).toBe(SENT_PRIVATELY_NOTE);
  await waitFor(() =>
    toldCustomer(s.slack, user, SUPPORT, asked.root).find((m) => /sent this request to our team/.test(m.text)),
  );
  const approval = await approvalOf(asked.root);
  const card = await cardOf(approval.id);
  return { asked, approval, card };
}

const status = async (id: string) =>
  (await s.db.pool.query(`SELECT status FROM approvals WHERE id = $1`, [id])).rows[0]?.status;
const ephemeralsOf = (user: string) => s.slack.ephemerals(user).map((m) => m.text);

describe('customers', () => {
  it('answers a question in the thread of the message; an unlinked user gets answers only', async () => {
    const { reply, root } = await ask(CASEY, 'what do your cleanings include?');
    expect(reply.thread_ts).toBe(root);
    expect(reply.text).toBe('Answer: what do your cleanings include?');
    const conv = (
      await s.db.pool.query(`SELECT customer_id, source, slack_user_id FROM conversations WHERE thread_id = $1`, [
        threadOf(root),
      ])
    ).rows[0];
    expect(conv).toEqual({ customer_id: null, source: 'slack', slack_user_id: CASEY }); // unlinked: knowledge base only
  });

  it('shows the working reaction on a slow turn and removes it after the reply', async () => {
    const post = await s.slack.postAsUser(PRIYA, SUPPORT, 'please answer slowly');
    await waitFor(() =>
      s.slack
        .messages(SUPPORT)
        .find((m) => m.ts === post.ts)
        ?.reactions?.some((r) => r.name === WORKING_REACTION),
    );
    const reply = await waitFor(() => botRepliesIn(s.slack, SUPPORT, post.ts)[0]);
    expect(reply.text).toBe('Answer: please answer slowly');
    await waitFor(() => !s.slack.messages(SUPPORT).find((m) => m.ts === post.ts)?.reactions?.length);
    const calls = s.slack
      .apiCalls()
      .filter((c) => c.method.startsWith('reactions.') && (c.args as { timestamp?: string }).timestamp === post.ts);
    expect(calls.map((c) => [c.method, c.ok])).toEqual([
      ['reactions.add', true],
      ['reactions.remove', true],
    ]);
  });

  it('continues a conversation when the customer replies in the thread, and answers DMs', async () => {
    const first = await ask(MARIA, 'hello there');
    const second = await ask(MARIA, 'and another question', { thread_ts: first.root });
    expect(second.reply.text).toBe('Answer: and another question');
    const msgs = (
      await s.db.pool.query(`SELECT role FROM conversation_messages WHERE thread_id = $1 ORDER BY id`, [
        threadOf(first.root),
      ])
    ).rows;
    expect(msgs.map((m) => m.role)).toEqual(['customer', 'agent', 'customer', 'agent']);

    const dm = await s.slack.sendDirectMessage(JAMES, 'do you clean ovens?');
    const reply = await waitFor(() => botRepliesIn(s.slack, dm.channel, dm.ts)[0]);
    expect(reply.text).toBe('Answer: do you clean ovens?');
    const conv = (
      await s.db.pool.query(`SELECT customer_id FROM conversations WHERE thread_id = $1`, [threadOf(dm.ts, dm.channel)])
    ).rows[0];
    expect(conv.customer_id).toBe('cus_002');
  });

  it('ignores bots, itself, edits and joins', async () => {
    const before = (await s.db.pool.query(`SELECT count(*)::int AS n FROM conversations`)).rows[0].n;
    const bot = await s.slack.postBotLikeMessage(SUPPORT, 'ticket: I am a bot');
    const own = await s.slack.postAsUser(LOCAL_IDS.botUserId, SUPPORT, 'hello from myself');
    const mine = await ask(RILEY, 'a question');
    await s.slack.editMessage(RILEY, SUPPORT, mine.ts, 'an edited question');
    await sleep(300);
    expect(botRepliesIn(s.slack, SUPPORT, bot.ts)).toEqual([]);
    expect(botRepliesIn(s.slack, SUPPORT, own.ts)).toEqual([]);
    expect(botRepliesIn(s.slack, SUPPORT, mine.ts)).toHaveLength(1);
    expect((await s.db.pool.query(`SELECT count(*)::int AS n FROM conversations`)).rows[0].n).toBe(before + 1);
  });

  it("answers an oversized message politely, and a reply in another customer's thread too", async () => {
    const long = await ask(MARIA, `ticket: ${'my sink leaks. '.repeat(300)}`);
    expect(long.reply.text).toMatch(/^Sorry! Messages can be at most 4000 characters/);
    expect(
      (await s.db.pool.query(`SELECT count(*)::int AS n FROM approvals WHERE thread_id = $1`, [threadOf(long.root)]))
        .rows[0].n,
    ).toBe(0);

    const mine = await ask(MARIA, 'question about my booking');
    const intruder = await ask(JAMES, 'ticket: please cancel everything', { thread_ts: mine.root });
    expect(intruder.reply.text).toBe(OTHER_CUSTOMER);
    expect(
      (await s.db.pool.query(`SELECT count(*)::int AS n FROM approvals WHERE thread_id = $1`, [threadOf(mine.root)]))
        .rows[0].n,
    ).toBe(0);

    // A manager writing in a customer's thread is staff talk, not a customer message.
    await s.slack.postAsUser(DANA, SUPPORT, 'I will look into this', { thread_ts: mine.root });
    await sleep(300);
    expect(botRepliesIn(s.slack, SUPPORT, mine.root)).toHaveLength(2);
  });

  it('apologises visibly when the turn fails', async () => {
    const { reply } = await ask(CASEY, 'boom');
    expect(reply.text).toMatch(/^Sorry, something went wrong on our side/);
  });

  it('processes the same event once, however often Slack delivers it', async () => {
    const post = await s.slack.postAsUser(JAMES, SUPPORT, 'ticket: the dryer vent rattles');
    const retries = await Promise.all([
      s.slack.redeliver(post.event_id, { retryNum: 1, reason: 'http_timeout' }),
      s.slack.redeliver(post.event_id, { retryNum: 2, reason: 'http_timeout' }),
    ]);
    expect([post.status, ...retries.map((r) => r.status)]).toEqual([200, 200, 200]);
    await waitFor(() => botRepliesIn(s.slack, SUPPORT, post.ts)[0]);
    await sleep(400);
    expect(botRepliesIn(s.slack, SUPPORT, post.ts)).toHaveLength(1);
    const rows = (
      await s.db.pool.query(`SELECT role FROM conversation_messages WHERE thread_id = $1`, [threadOf(post.ts)])
    ).rows;
    expect(rows.filter((r) => r.role === 'customer')).toHaveLength(1);
    expect(
      (await s.db.pool.query(`SELECT count(*)::int AS n FROM approvals WHERE thread_id = $1`, [threadOf(post.ts)]))
        .rows[0].n,
    ).toBe(1);
    expect(
      (await s.db.pool.query(`SELECT count(*)::int AS n FROM slack_events WHERE event_id = $1`, [post.event_id]))
        .rows[0].n,
    ).toBe(1);
  });

  it('refuses a forged or stale signature before anything happens', async () => {
    const forged = await s.slack.postAsUser(MARIA, SUPPORT, 'ticket: forged', { signingSecret: 'not-the-secret' });
    const stale = await s.slack.postAsUser(MARIA, SUPPORT, 'ticket: replayed', {
      timestampSec: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(forged.status).toBe(401);
    expect(stale.status).toBe(401);
    await sleep(300);
    expect(botRepliesIn(s.slack, SUPPORT, forged.ts)).toEqual([]);
    const n = (
      await s.db.pool.query(`SELECT count(*)::int AS n FROM conversations WHERE thread_id IN ($1, $2)`, [
        threadOf(forged.ts),
        threadOf(stale.ts),
      ])
    ).rows[0].n;
    expect(n).toBe(0);
  });
});

describe('approval cards', () => {
  it('Approve: executed once, card updated with who and the result, customer told (by DM)', async () => {
    const { asked, approval, card } = await proposeEmailChange(MARIA, 'maria.new@example.com');
    const text = textOfMessage(card);
    expect(text).toContain('Approval needed: Update customer details');
    expect(text).toContain('Maria Gonzalez (`cus_001`)');
    expect(text).toContain('Now: maria.gonzalez@example.com\nNew: *maria.new@example.com*');
    expect(text).toContain(approval.id);
    expect(text).toMatch(/Expires Mon, Dec 7, 1:00 PM EST/);
    expect(hasButtons(card)).toBe(true);

    const click = await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve);
    expect(click.status).toBe(200);
    const told = await waitFor(() =>
      toldCustomer(s.slack, MARIA, SUPPORT, asked.root).find((m) => m.text.startsWith('Done:')),
    );
    expect(told.text).toContain('maria.new@example.com');
    const updated = await waitFor(() => {
      const c = cardFor(s.slack, MANAGERS, approval.id);
      return !hasButtons(c) && textOfMessage(c).includes('*Done:*') && c;
    }, CARD_MS);
    expect(updated.ts).toBe(card.ts); // updated in place
    expect(textOfMessage(updated)).toMatch(/Approved\* by <@U01MGR0001> at Mon, Dec 7, 9:00 AM EST/);
    expect(textOfMessage(updated)).toContain('Updated email.');
    expect(await status(approval.id)).toBe('executed');
    expect((await s.db.pool.query(`SELECT email FROM customers WHERE id = 'cus_001'`)).rows[0].email).toBe(
      'maria.new@example.com',
    );
    const audit = (
      await s.db.pool.query(`SELECT action, actor FROM audit_log WHERE approval_id = $1 ORDER BY id`, [approval.id])
    ).rows;
    expect(audit.filter((r) => r.action === 'executed')).toHaveLength(1);
    expect(audit.find((r) => r.action === 'approved')?.actor).toBe('slack:U01MGR0001');

    // A click from a stale copy of the card (Slack client lag): told who decided, nothing runs again.
    await rawAction(OWEN, ACTIONS.approve, approval.id);
    await waitFor(() => ephemeralsOf(OWEN).find((t) => t.includes('already approved by <@U01MGR0001>')));
    expect(
      (
        await s.db.pool.query(
          `SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
          [approval.id],
        )
      ).rows[0].n,
    ).toBe(1);
  });

  it('two managers clicking at once: one decision, the other is told who won', async () => {
    const { approval, card } = await proposeEmailChange(JAMES, 'james.w@example.org');
    const clicks = await Promise.all([
      s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve),
      s.slack.click(OWEN, MANAGERS, card.ts, ACTIONS.approve),
    ]);
    expect(clicks.map((c) => c.status)).toEqual([200, 200]);
    await waitForDb(async () => (await status(approval.id)) === 'executed');
    const winner = (await s.db.pool.query(`SELECT approver FROM approvals WHERE id = $1`, [approval.id])).rows[0]
      .approver as string;
    const loser = winner === 'slack:U01MGR0001' ? OWEN : DANA;
    const told = await waitFor(() =>
      ephemeralsOf(loser).find((t) => t.includes(`already approved by <@${winner.slice(6)}>`)),
    );
    expect(told).toMatch(/at Mon, Dec 7, 9:00 AM EST/);
    expect(
      (
        await s.db.pool.query(
          `SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action IN ('approved', 'executed')`,
          [approval.id],
        )
      ).rows[0].n,
    ).toBe(2);
  });

  it('Edit: an invalid value is shown inline and nothing happens; a valid one is executed as edited', async () => {
    const { asked, approval, card } = await proposeEmailChange(PRIYA, 'priya.typo@exmaple.com');
    await s.slack.click(OWEN, MANAGERS, card.ts, ACTIONS.edit);
    const [modal] = await waitFor(() => s.slack.openViews(OWEN).length === 1 && s.slack.openViews(OWEN));
    const emailInput = modal!.blocks.find((b) => b.block_id === 'changes.email') as unknown as {
      element: { initial_value?: string };
    };
    expect(emailInput.element.initial_value).toBe('priya.typo@exmaple.com');
    expect(modal!.blocks.some((b) => b.block_id === 'customer_id')).toBe(false); // fixed to the conversation's customer

    const bad = await s.slack.submitView(OWEN, modal!.id, {
      'changes.email': { value: 'still not an email' },
      'changes.address.city': { value: 'Fernbrook' },
    });
    expect(bad.outcome).toBe('errors');
    const errors = (bad.response as { errors: Record<string, string> }).errors;
    expect(errors['changes.email']).toMatch(/valid email/);
    expect(errors['changes.address.line1']).toBeTruthy(); // a city alone is not an address
    expect(await status(approval.id)).toBe('pending');

    const good = await s.slack.submitView(OWEN, modal!.id, {
      'changes.email': { value: 'priya.patel@example.net' },
      'changes.address.city': { value: null },
    });
    expect(good.outcome).toBe('closed');
    const told = await waitFor(() =>
      toldCustomer(s.slack, PRIYA, SUPPORT, asked.root).find((m) => m.text.startsWith('Done:')),
    );
    expect(told.text).toContain('priya.patel@example.net');
    const row = (
      await s.db.pool.query(`SELECT status, args, args_original, approver FROM approvals WHERE id = $1`, [approval.id])
    ).rows[0];
    expect(row).toMatchObject({ status: 'executed', approver: 'slack:U01MGR0002' });
    expect(row.args).toEqual({ customer_id: 'cus_003', changes: { email: 'priya.patel@example.net' } });
    expect(row.args_original.changes.email).toBe('priya.typo@exmaple.com');
    const updated = await waitFor(() => {
      const c = cardFor(s.slack, MANAGERS, approval.id);
      return textOfMessage(c).includes('*Done:*') && c;
    }, CARD_MS);
    const text = textOfMessage(updated);
    expect(text).toContain('Edited before approval:');
    expect(text).toContain('• Email: priya.typo@exmaple.com → *priya.patel@example.net*');
    expect(text).toContain('New: *priya.patel@example.net*');
  });

  it('Reject: a reason is required, the customer is told it, nothing changes', async () => {
    const { asked, approval, card } = await proposeEmailChange(JAMES, 'someone.else@example.com');
    await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.reject);
    const [modal] = await waitFor(() => s.slack.openViews(DANA).length === 1 && s.slack.openViews(DANA));
    const empty = await s.slack.submitView(DANA, modal!.id, { reason: { value: '   ' } });
    expect(empty.outcome).toBe('errors');
    const done = await s.slack.submitView(DANA, modal!.id, {
      reason: { value: 'Please confirm this from your current email first.' },
    });
    expect(done.outcome).toBe('closed');
    const told = await waitFor(() =>
      toldCustomer(s.slack, JAMES, SUPPORT, asked.root).find((m) => m.text.startsWith('A manager declined')),
    );
    expect(told.text).toContain('Please confirm this from your current email first.');
    expect(await status(approval.id)).toBe('rejected');
    expect((await s.db.pool.query(`SELECT email FROM customers WHERE id = 'cus_002'`)).rows[0].email).not.toBe(
      'someone.else@example.com',
    );
    const updated = await waitFor(() => {
      const c = cardFor(s.slack, MANAGERS, approval.id);
      return !hasButtons(c) && c;
    });
    expect(textOfMessage(updated)).toMatch(/Rejected\* by <@U01MGR0001>/);
    expect(textOfMessage(updated)).toContain('>Please confirm this from your current email first.');
  });

  it('a click or a submission from a non-manager is refused privately and changes nothing', async () => {
    const { approval, card } = await proposeEmailChange(MARIA, 'maria.third@example.com');
    for (const who of [CASEY, MARIA]) {
      const r = await s.slack.click(who, MANAGERS, card.ts, ACTIONS.approve);
      expect(r.status).toBe(200);
      await waitFor(() => ephemeralsOf(who).includes(NOT_A_MANAGER));
    }
    await s.slack.click(CASEY, MANAGERS, card.ts, ACTIONS.edit);
    await sleep(200);
    expect(s.slack.openViews(CASEY)).toEqual([]); // no form for them
    // A forged edit submission (a view they could not have been given) is refused too.
    const res = await rawPost({
      type: 'view_submission',
      user: { id: CASEY, username: 'casey.nguyen', team_id: 'T0LOCAL0001' },
      team: { id: 'T0LOCAL0001' },
      api_app_id: 'A0LOCAL0001',
      trigger_id: '1.2.3',
      view: {
        id: 'V0FORGED',
        type: 'modal',
        callback_id: 'approval_edit_submit',
        private_metadata: JSON.stringify({ approval_id: approval.id }),
        state: { values: {} },
      },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ response_action: 'update' });
    expect(res.body).toContain('Only Brightwell managers');
    expect(await status(approval.id)).toBe('pending');
    expect(hasButtons(cardFor(s.slack, MANAGERS, approval.id))).toBe(true);
  });

  it('an unknown approval id or a malformed payload gets a polite answer and changes nothing', async () => {
    await rawAction(DANA, ACTIONS.approve, 'not-an-approval');
    await waitFor(() => ephemeralsOf(DANA).includes(NOT_FOUND));
    await rawAction(DANA, ACTIONS.approve, '00000000-0000-8000-8000-000000000000');
    await waitFor(() => ephemeralsOf(DANA).filter((t) => t === NOT_FOUND).length === 2);
    const res = await rawPost({
      type: 'view_submission',
      user: { id: DANA, username: 'dana', team_id: 'T0LOCAL0001' },
      team: { id: 'T0LOCAL0001' },
      api_app_id: 'A0LOCAL0001',
      view: {
        id: 'V0X',
        type: 'modal',
        callback_id: 'approval_reject_submit',
        private_metadata: '{nonsense',
        state: { values: {} },
      },
    });
    expect(JSON.parse(res.body)).toMatchObject({ response_action: 'update' });
    const garbage = await rawPost('this is not json', true);
    expect(garbage.status).toBe(400);
  });

  it('customer text on the card and in replies is escaped: no pings, no fake links', async () => {
    const nasty =
      'ticket: <!channel> <!here> hey <@U01MGR0001> log in at <http://evil.example|your bank> & *win* @everyone';
    const asked = await ask(CASEY, nasty.replace('ticket: ', 'q: '));
    expect(asked.reply.text).toContain('&lt;!channel&gt;');
    expect(asked.reply.text).not.toMatch(/<!|<@|<http/);

    const t = await ask(MARIA, nasty);
    const approval = await approvalOf(t.root);
    const card = await cardOf(approval.id);
    const json = JSON.stringify(card.blocks);
    expect(json).not.toMatch(/<!channel>|<!here>|<@U01MGR0001>|<http:\/\/evil/);
    expect(json).toContain(
      '&lt;!channel&gt; &lt;!here&gt; hey &lt;@U01MGR0001&gt; log in at ' +
        '&lt;http://evil.example|your bank&gt; &amp; *win* @\u200Beveryone',
    );
    expect(textOfMessage(card)).toContain('*Their request:*\n>ticket: &lt;!channel&gt;');
    expect(card.text).not.toMatch(/<[!@h]/);
  });

  it('a changed request supersedes the pending one: its card says so and a new card goes out', async () => {
    const first = await proposeEmailChange(JAMES, 'james.one@example.org');
    const second = await ask(JAMES, 'sorry, make that: change my email to james.two@example.org', {
      thread_ts: first.asked.root,
    });
    expect(second.reply.text).toBe(SENT_PRIVATELY_NOTE);
    await waitFor(() =>
      toldCustomer(s.slack, JAMES, SUPPORT, first.asked.root).find((m) =>
        /sent this request to our team[\s\S]*james\.two@example\.org/.test(m.text),
      ),
    );
    const rows = (
      await s.db.pool.query(`SELECT id, status FROM approvals WHERE thread_id = $1 ORDER BY created_at, id`, [
        threadOf(first.asked.root),
      ])
    ).rows;
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'superseded']);
    const newer = rows.find((r) => r.status === 'pending')!;
    const old = await waitFor(() => {
      const c = cardFor(s.slack, MANAGERS, first.approval.id);
      return !hasButtons(c) && textOfMessage(c).includes('*Superseded*') && c;
    });
    expect(old.ts).toBe(first.card.ts);
    const fresh = await cardOf(newer.id);
    expect(textOfMessage(fresh)).toContain('New: *james.two@example.org*');
    expect(hasButtons(fresh)).toBe(true);
  });

  it('a card that never went out (Slack down, worker died) is posted by the reconciler, once', async () => {
    const { approval, card } = await proposeEmailChange(PRIYA, 'priya.recon@example.net');
    // The card is in Slack before its sender records it: losing it before then would race that record.
    await waitForDb(async () => {
      const r = await s.db.pool.query(
        `SELECT 1 FROM approvals a WHERE a.id = $1 AND a.card_ts = $2
           AND NOT EXISTS (SELECT 1 FROM card_outbox o WHERE o.approval_id = a.id)`,
        [approval.id, card.ts],
      );
      return r.rowCount === 1;
    });
    await s.db.pool.query(`UPDATE approvals SET card_channel = NULL, card_ts = NULL WHERE id = $1`, [approval.id]);
    const cards = s.workers[0]!.slack!.bot.deps.cards;
    expect(await cards.reconcile(0)).toBeGreaterThanOrEqual(1);
    expect(await cards.reconcile(0)).toBe(0);
    const posted = s.slack.messages(MANAGERS).filter((m) => JSON.stringify(m.blocks ?? []).includes(approval.id));
    // the lost one (ours, in the test) and one new card
    expect(posted.map((m) => m.ts)).toEqual([card.ts, posted[1]!.ts]);
    const row = (await s.db.pool.query(`SELECT card_ts FROM approvals WHERE id = $1`, [approval.id])).rows[0];
    expect(row.card_ts).toBe(posted[1]!.ts);
  });

  it('an approval nobody decides expires: the card and the customer are told', async () => {
    const { asked, approval, card } = await proposeEmailChange(MARIA, 'maria.late@example.com');
    s.clock.advance(241 * 60_000);
    try {
      // A click after the deadline settles it (before the sweeper would).
      await s.slack.click(DANA, MANAGERS, card.ts, ACTIONS.approve);
      await waitFor(() => ephemeralsOf(DANA).find((t) => t.startsWith('This request expired at')));
      await waitForDb(async () => (await status(approval.id)) === 'expired');
      const updated = await waitFor(() => {
        const c = cardFor(s.slack, MANAGERS, approval.id);
        return !hasButtons(c) && textOfMessage(c).includes('*Expired*') && c;
      });
      expect(updated.ts).toBe(card.ts);
      await waitFor(() =>
        toldCustomer(s.slack, MARIA, SUPPORT, asked.root).find((m) =>
          m.text.startsWith('Nobody could look at that in time'),
        ),
      );
    } finally {
      s.clock.set('2026-12-07T14:00:00.000Z');
    }
  });
});

describe('App Home', () => {
  it('managers see what waits and what was decided; customers see a short page', async () => {
    const { approval } = await proposeEmailChange(JAMES, 'home.test@example.org');
    await s.slack.openHome(OWEN);
    const home = await waitFor(() => s.slack.homeView(OWEN));
    const text = JSON.stringify(home.blocks);
    expect(text).toContain('Waiting for a decision');
    expect(text).toContain(approval.id);
    expect(text).toContain('Latest decisions');
    expect(text).toMatch(/approved, done by <@U01MGR000[12]>/);

    await s.slack.openHome(MARIA);
    const mine = await waitFor(() => s.slack.homeView(MARIA));
    expect(JSON.stringify(mine.blocks)).toContain('linked to the customer record of Maria Gonzalez');
    expect(JSON.stringify(mine.blocks)).not.toContain(ACTIONS.homeLink);
  });

  it('a manager links a Slack user to a customer; that user is then served as the customer', async () => {
    await s.slack.openHome(DANA);
    await waitFor(() => s.slack.homeView(DANA));
    await s.slack.click(DANA, 'home', '', ACTIONS.homeLink);
    const [modal] = await waitFor(() => s.slack.openViews(DANA).length === 1 && s.slack.openViews(DANA));
    // A user picker: only members can be chosen, and a bot is refused.
    const bad = await s.slack.submitView(DANA, modal!.id, {
      slack_user: { value: LOCAL_IDS.botUserId },
      customer: { value: 'cus_010' },
    });
    expect(bad.outcome).toBe('errors');
    expect((bad.response as { errors: Record<string, string> }).errors.slack_user).toMatch(/bot, not a person/);
    const ok = await s.slack.submitView(DANA, modal!.id, {
      slack_user: { value: RILEY },
      customer: { value: 'cus_010' },
    });
    expect(ok.outcome).toBe('updated');
    const link = (
      await s.db.pool.query(`SELECT customer_id, linked_by FROM slack_identities WHERE slack_user_id = $1`, [RILEY])
    ).rows[0];
    expect(link).toEqual({ customer_id: 'cus_010', linked_by: 'slack:U01MGR0001' });
    const audit = (
      await s.db.pool.query(
        `SELECT actor FROM audit_log WHERE action = 'slack_identity_linked' AND customer_id = 'cus_010'`,
      )
    ).rows;
    expect(audit).toEqual([{ actor: 'slack:U01MGR0001' }]);

    const asked = await ask(RILEY, 'hello, it is me');
    const conv = (
      await s.db.pool.query(`SELECT customer_id FROM conversations WHERE thread_id = $1`, [threadOf(asked.root)])
    ).rows[0];
    expect(conv.customer_id).toBe('cus_010');
  });
});

describe('acks', () => {
  it('answered every Slack request well within its 3 s deadline', () => {
    const stats = s.workers[0]!.slack!.bot.ackStats();
    expect(stats.count).toBeGreaterThan(30);
    expect(s.slack.deliveries().filter((d) => d.status === 0)).toEqual([]); // no delivery timed out
    expect(stats.max).toBeLessThan(3000);
    console.info(
      `slack ack latency over ${stats.count} requests: p50 ${stats.p50.toFixed(1)} ms, ` +
        `p95 ${stats.p95.toFixed(1)} ms, max ${stats.max.toFixed(1)} ms`,
    );
  });
});

// --- raw signed requests: what a stale client or an attacker with the secret could send ----------

async function rawPost(payload: unknown, raw = false): Promise<{ status: number; body: string }> {
  const body = raw
    ? `payload=${encodeURIComponent(String(payload))}`
    : `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const headers = signSlackRequest(s.connection.signingSecret, body, Math.floor(Date.now() / 1000));
  const res = await fetch(`${s.workers[0]!.url}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return { status: res.status, body: await res.text() };
}

/** A block_actions payload for a card button whose value we choose (a stale or tampered card). */
function rawAction(user: string, actionId: string, value: string) {
  return rawPost({
    type: 'block_actions',
    user: { id: user, username: user, team_id: 'T0LOCAL0001' },
    team: { id: 'T0LOCAL0001', domain: 'local' },
    api_app_id: 'A0LOCAL0001',
    trigger_id: '1.2.3',
    container: { type: 'message', message_ts: '1.1', channel_id: MANAGERS, is_ephemeral: false },
    channel: { id: MANAGERS, name: 'managers' },
    actions: [{ type: 'button', action_id: actionId, block_id: 'approval_actions', value, action_ts: '1.1' }],
  });
}
