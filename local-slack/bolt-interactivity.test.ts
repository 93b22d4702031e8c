// Interactivity against a real Bolt app: approval card, buttons, modals, response_url, App Home.
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER, GUEST, MANAGER, MANAGERS, quietLogger, sleep, startStack, SUPPORT, TOKEN } from './test-fixtures.js';
import type { LocalSlack, StoredMessage } from './types.js';

const editModal = (meta: string) => ({
  type: 'modal' as const,
  callback_id: 'edit_card',
  private_metadata: meta,
  title: { type: 'plain_text' as const, text: 'Edit refund' },
  submit: { type: 'plain_text' as const, text: 'Save' },
  blocks: [
    {
      type: 'input',
      block_id: 'amount',
      label: { type: 'plain_text', text: 'Amount' },
      element: { type: 'number_input', action_id: 'value', is_decimal_allowed: false, initial_value: '50' },
    },
    {
      type: 'input',
      block_id: 'reason',
      label: { type: 'plain_text', text: 'Reason' },
      element: { type: 'plain_text_input', action_id: 'value', multiline: true },
    },
    {
      type: 'input',
      block_id: 'tier',
      optional: true,
      label: { type: 'plain_text', text: 'Tier' },
      element: {
        type: 'static_select',
        action_id: 'value',
        options: [
          { text: { type: 'plain_text', text: 'Gold' }, value: 'gold' },
          { text: { type: 'plain_text', text: 'Silver' }, value: 'silver' },
        ],
      },
    },
  ],
});

function card(amount: number) {
  return [
    { type: 'header', text: { type: 'plain_text', text: 'Refund request' } },
    {
      type: 'section',
      block_id: 'summary',
      fields: [
        { type: 'mrkdwn', text: `*Amount*\n${amount}` },
        { type: 'mrkdwn', text: `*From*\n<@${CUSTOMER}>` },
      ],
    },
    {
      type: 'actions',
      block_id: 'decide',
      elements: [
        {
          type: 'button',
          action_id: 'approve',
          style: 'primary',
          text: { type: 'plain_text', text: 'Approve' },
          value: 'req-1',
        },
        { type: 'button', action_id: 'edit', text: { type: 'plain_text', text: 'Edit' }, value: 'req-1' },
        {
          type: 'button',
          action_id: 'reject',
          style: 'danger',
          text: { type: 'plain_text', text: 'Reject' },
          value: 'req-1',
        },
      ],
    },
  ];
}

describe('interactivity with a real Bolt app', () => {
  let slack: LocalSlack;
  let close: () => Promise<void>;
  const log: Record<string, unknown[]> = {};
  const note = (k: string, v: unknown) => (log[k] ??= []).push(v);
  const errorCode = (e: unknown) => (e as { data?: { error?: string } }).data?.error;

  beforeAll(async () => {
    const register = (app: App) => {
      app.message(/refund/, async ({ message, client, say }) => {
        if (message.subtype !== undefined) return;
        await client.chat.postMessage({
          channel: MANAGERS,
          text: 'Refund request',
          blocks: card(50),
          metadata: undefined,
        });
        await say({ text: 'Sent to a manager for approval.', thread_ts: message.ts });
        note('customerTs', message.ts);
      });
      app.message(/^whisper$/, async ({ message, client }) => {
        if (message.subtype !== undefined) return;
        await client.chat.postEphemeral({
          channel: message.channel,
          user: message.user,
          text: 'only you',
          blocks: [
            {
              type: 'section',
              text: { type: 'mrkdwn', text: 'only *you*' },
              accessory: { type: 'button', action_id: 'dismiss', text: { type: 'plain_text', text: 'Dismiss' } },
            },
          ],
        });
      });
      app.action<BlockAction>('approve', async ({ ack, respond, body }) => {
        await ack();
        note('approve', body);
        await respond({ replace_original: true, text: `Approved by <@${body.user.id}>` });
      });
      app.action<BlockAction>('edit', async ({ ack, body, client }) => {
        await ack();
        note('trigger', body.trigger_id);
        const meta = JSON.stringify({ channel: body.channel?.id, ts: body.message?.ts });
        await client.views.open({ trigger_id: body.trigger_id, view: editModal(meta) });
      });
      app.action<BlockAction>('reject', async ({ ack, body, client }) => {
        await ack();
        try {
          await client.chat.update({ channel: SUPPORT, ts: log.customerTs?.[0] as string, text: 'hijacked' });
        } catch (e) {
          note('rejectError', errorCode(e));
        }
      });
      app.action<BlockAction>('dismiss', async ({ ack, respond, body }) => {
        await ack();
        note('dismiss', body);
        await respond({ delete_original: true });
      });
      app.view<ViewSubmitAction>('edit_card', async ({ ack, view, client }) => {
        const v = view.state.values;
        note('submission', view);
        const reason = v.reason?.value?.value ?? '';
        if (Number(v.amount?.value?.value) > 1000) {
          await ack({ response_action: 'errors', errors: { amount: 'Amount must be at most 1000' } });
          return;
        }
        if (reason === 'push') {
          await ack({
            response_action: 'push',
            view: {
              type: 'modal',
              callback_id: 'confirm',
              title: { type: 'plain_text', text: 'Sure?' },
              submit: { type: 'plain_text', text: 'Yes' },
              blocks: [{ type: 'section', text: { type: 'plain_text', text: 'Really?' } }],
            },
          });
          return;
        }
        if (reason === 'bad-errors') {
          await ack({ response_action: 'errors', errors: { nope: 'no such block' } });
          return;
        }
        await ack();
        const meta = JSON.parse(view.private_metadata) as { channel: string; ts: string };
        await client.chat.update({
          channel: meta.channel,
          ts: meta.ts,
          text: 'Refund request (edited)',
          blocks: card(Number(v.amount?.value?.value)),
        });
      });
      app.view('confirm', async ({ ack }) => {
        await ack({ response_action: 'clear' });
      });
      app.event('app_home_opened', async ({ event, client }) => {
        await client.views.publish({
          user_id: event.user,
          view: {
            type: 'home',
            blocks: [
              {
                type: 'section',
                text: { type: 'mrkdwn', text: `Hi <@${event.user}>` },
                accessory: {
                  type: 'button',
                  action_id: 'home_ping',
                  text: { type: 'plain_text', text: 'Ping' },
                  value: 'p',
                },
              },
            ],
          },
        });
      });
      app.action<BlockAction>('home_ping', async ({ ack, body }) => {
        await ack();
        note('home', body);
      });
    };
    ({ slack, close } = await startStack([register]));
  });
  afterAll(() => close());

  const cardMessage = () => slack.messages(MANAGERS).find((m) => m.blocks?.some((b) => b.type === 'header'));

  it('posts the approval card, opens a modal on Edit, keeps it open on validation errors', async () => {
    await slack.postAsUser(CUSTOMER, SUPPORT, 'I want a refund');
    const msg = await slack.waitFor(cardMessage);
    expect(msg.text).toBe('Refund request');

    const click = await slack.click(MANAGER, MANAGERS, msg.ts, 'edit');
    expect(click.status).toBe(200);
    const [modal] = await slack.waitFor(() => slack.openViews(MANAGER).length === 1 && slack.openViews(MANAGER));
    expect(modal).toMatchObject({ callback_id: 'edit_card', title: { text: 'Edit refund' } });

    // The Slack client itself refuses an empty required field; the app never hears of it.
    const deliveriesBefore = slack.deliveries().length;
    const empty = await slack.submitView(MANAGER, modal!.id, {});
    expect(empty.outcome).toBe('client_errors');
    expect(slack.openViews(MANAGER)[0]!.errors).toEqual({ reason: 'Please complete this required field.' });
    expect(slack.deliveries().length).toBe(deliveriesBefore);

    const tooMuch = await slack.submitView(MANAGER, modal!.id, { amount: { value: '5000' }, reason: { value: 'vip' } });
    expect(tooMuch).toMatchObject({
      status: 200,
      outcome: 'errors',
      response: { errors: { amount: 'Amount must be at most 1000' } },
    });
    expect(slack.openViews(MANAGER)).toHaveLength(1);
    expect(slack.openViews(MANAGER)[0]!.errors).toEqual({ amount: 'Amount must be at most 1000' });

    const ok = await slack.submitView(MANAGER, modal!.id, {
      amount: { value: '80' },
      reason: { value: 'goodwill' },
      tier: { value: 'gold' },
    });
    expect(ok.outcome).toBe('closed');
    expect(slack.openViews(MANAGER)).toHaveLength(0);
    const submitted = log.submission!.at(-1) as {
      state: { values: Record<string, Record<string, unknown>> };
      hash: string;
    };
    expect(submitted.state.values).toEqual({
      amount: { value: { type: 'number_input', value: '80' } },
      reason: { value: { type: 'plain_text_input', value: 'goodwill' } },
      tier: {
        value: {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: 'Gold' }, value: 'gold' },
        },
      },
    });
    expect(submitted.hash).toMatch(/^\d+\.[0-9a-f]+$/);
    const edited = await slack.waitFor(() => cardMessage()?.text === 'Refund request (edited)' && cardMessage());
    expect(JSON.stringify(edited.blocks)).toContain('*Amount*\\n80');
    expect(edited.edited?.user).toBe('U0BOT000001');
  });

  it('a trigger_id is single-use', async () => {
    const client = new WebClient(TOKEN, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    const used = log.trigger!.at(-1) as string;
    await expect(client.views.open({ trigger_id: used, view: editModal('{}') })).rejects.toMatchObject({
      data: { error: 'exchanged_trigger_id' },
    });
    await expect(client.views.open({ trigger_id: '123.456.abc', view: editModal('{}') })).rejects.toMatchObject({
      data: { error: 'invalid_trigger_id' },
    });
  });

  it('response_action push stacks a modal and clear closes the whole stack', async () => {
    const msg = cardMessage()!;
    await slack.click(MANAGER, MANAGERS, msg.ts, 'edit');
    const [root] = await slack.waitFor(() => slack.openViews(MANAGER).length === 1 && slack.openViews(MANAGER));
    const pushed = await slack.submitView(MANAGER, root!.id, { reason: { value: 'push' } });
    expect(pushed.outcome).toBe('pushed');
    const stack = slack.openViews(MANAGER);
    expect(stack.map((v) => v.callback_id)).toEqual(['edit_card', 'confirm']);
    expect(stack[1]).toMatchObject({ previous_view_id: root!.id, root_view_id: root!.id });
    await expect(slack.submitView(MANAGER, root!.id, {})).rejects.toThrow(/not the modal/);
    const cleared = await slack.submitView(MANAGER, stack[1]!.id, {});
    expect(cleared.outcome).toBe('cleared');
    expect(slack.openViews(MANAGER)).toHaveLength(0);
  });

  it('errors for a block that is not an input leave the modal open with a connection error', async () => {
    await slack.click(MANAGER, MANAGERS, cardMessage()!.ts, 'edit');
    const [v] = await slack.waitFor(() => slack.openViews(MANAGER).length === 1 && slack.openViews(MANAGER));
    const r = await slack.submitView(MANAGER, v!.id, { reason: { value: 'bad-errors' } });
    expect(r.outcome).toBe('failed');
    expect(slack.openViews(MANAGER)[0]!.failure).toMatch(/trouble connecting/);
    await slack.closeView(MANAGER, v!.id);
    expect(slack.openViews(MANAGER)).toHaveLength(0);
  });

  it('chat.update on a user message fails cant_update_message', async () => {
    await slack.click(MANAGER, MANAGERS, cardMessage()!.ts, 'reject');
    await slack.waitFor(() => log.rejectError?.length);
    expect(log.rejectError).toEqual(['cant_update_message']);
    expect(slack.messages(SUPPORT)[0]!.text).toBe('I want a refund');
  });

  it('Approve replaces the card through response_url', async () => {
    const msg = cardMessage()!;
    await slack.click(MANAGER, MANAGERS, msg.ts, 'approve');
    const replaced = await slack.waitFor(() => {
      const m = slack.messages(MANAGERS).find((x) => x.ts === msg.ts);
      return m?.text.startsWith('Approved') && m;
    });
    expect(replaced.text).toBe(`Approved by <@${MANAGER}>`);
    expect(replaced.blocks).toBeUndefined();
    const body = log.approve!.at(-1) as BlockAction & { actions: Record<string, unknown>[] };
    expect(body.container).toMatchObject({
      type: 'message',
      message_ts: msg.ts,
      channel_id: MANAGERS,
      is_ephemeral: false,
    });
    expect(body.actions[0]).toMatchObject({
      type: 'button',
      action_id: 'approve',
      block_id: 'decide',
      value: 'req-1',
      style: 'primary',
    });
    expect(body.response_url).toMatch(new RegExp(`^${slack.url}/response/`));
  });

  it('ephemeral messages are visible only to their user and can be deleted via response_url', async () => {
    await slack.postAsUser(GUEST, SUPPORT, 'whisper');
    const eph = await slack.waitFor(() => slack.ephemerals(GUEST)[0]);
    expect(slack.ephemerals(CUSTOMER)).toHaveLength(0);
    expect(slack.messages(SUPPORT).some((m: StoredMessage) => m.ts === eph.ts)).toBe(false);
    await expect(slack.click(CUSTOMER, SUPPORT, eph.ts, 'dismiss')).rejects.toThrow(/no message/);
    await slack.click(GUEST, SUPPORT, eph.ts, 'dismiss');
    await slack.waitFor(() => slack.ephemerals(GUEST).length === 0);
    const body = log.dismiss![0] as { container: { is_ephemeral: boolean }; message?: unknown };
    expect(body.container.is_ephemeral).toBe(true);
    expect(body.message).toBeUndefined();
  });

  it('App Home: app_home_opened → views.publish, and clicks come from a view container', async () => {
    await slack.openHome(CUSTOMER);
    const home = await slack.waitFor(() => slack.homeView(CUSTOMER));
    expect(home.type).toBe('home');
    expect(slack.homeView(MANAGER)).toBeUndefined();
    await slack.click(CUSTOMER, 'home', '', 'home_ping');
    await slack.waitFor(() => log.home?.length);
    expect(log.home![0]).toMatchObject({
      container: { type: 'view', view_id: home.id },
      view: { id: home.id, type: 'home' },
    });
  });
});

describe('trigger_id lifetime', () => {
  it('views.open with a trigger older than its lifetime fails expired_trigger_id', async () => {
    const errors: unknown[] = [];
    const stack = await startStack(
      [
        (app: App) => {
          app.message(/^late$/, async ({ say }) => {
            await say({
              text: 'late',
              blocks: [
                {
                  type: 'actions',
                  elements: [{ type: 'button', action_id: 'open_late', text: { type: 'plain_text', text: 'Open' } }],
                },
              ],
            });
          });
          app.action<BlockAction>('open_late', async ({ ack, body, client }) => {
            await ack();
            // Longer than the (shortened) lifetime whatever the machine load.
            await sleep(300);
            await client.views
              .open({ trigger_id: body.trigger_id, view: editModal('{}') })
              .catch((e: unknown) => errors.push((e as { data?: { error?: string } }).data?.error));
          });
        },
      ],
      { timing: { triggerTtlMs: 100 } },
    );
    try {
      await stack.slack.postAsUser(GUEST, SUPPORT, 'late');
      const late = await stack.slack.waitFor(() =>
        stack.slack.messages(SUPPORT).find((m) => m.text === 'late' && m.bot_id),
      );
      await stack.slack.click(GUEST, SUPPORT, late.ts, 'open_late');
      await stack.slack.waitFor(() => errors.length);
      expect(errors).toEqual(['expired_trigger_id']);
      expect(stack.slack.openViews(GUEST)).toHaveLength(0);
    } finally {
      await stack.close();
    }
  });
});
