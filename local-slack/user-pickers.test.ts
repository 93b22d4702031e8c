// users_select and checkboxes as Slack has them: the element rules, what a view_submission and a
// block_actions payload carry, and what the Slack client lets a person pick.
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBlocks, validateView } from './block-kit.js';
import { BOT_USER, CUSTOMER, GUEST, MANAGER, MANAGERS, quietLogger, startStack, TOKEN } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const picker = (extra: Record<string, unknown> = {}) => ({ type: 'users_select', action_id: 'pick', ...extra });
const boxes = (extra: Record<string, unknown> = {}) => ({
  type: 'checkboxes',
  action_id: 'box',
  options: [
    { text: plain('Yes, relink'), value: 'relink', description: { type: 'mrkdwn', text: '*replaces* the link' } },
  ],
  ...extra,
});
const input = (block_id: string, element: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id,
  label: plain(block_id),
  element,
  ...extra,
});
const modal = (blocks: unknown[]) => ({ type: 'modal', title: plain('Pick'), submit: plain('Go'), blocks });

describe('Block Kit rules', () => {
  it('users_select: in inputs, actions and accessories, with an optional initial_user', () => {
    expect(
      validateView(
        modal([
          input('who', picker({ initial_user: CUSTOMER, placeholder: plain('Choose a person') })),
          { type: 'actions', elements: [picker({ action_id: 'other' })] },
          { type: 'section', text: { type: 'mrkdwn', text: 'x' }, accessory: picker({ action_id: 'acc' }) },
        ]),
        'modal',
      ),
    ).toEqual([]);
    expect(validateBlocks([input('who', picker({ initial_users: [CUSTOMER] }))], 'modal')).toEqual([
      "unsupported property 'initial_users' [json-pointer:/blocks/0/element/initial_users]",
    ]);
    expect(validateBlocks([input('who', picker({ initial_user: 7 }))], 'modal')).toEqual([
      'must be a string [json-pointer:/blocks/0/element/initial_user]',
    ]);
  });

  it('checkboxes: 1 to 10 options, mrkdwn allowed in them, initial_options among them', () => {
    expect(validateView(modal([input('ok', boxes(), { optional: true })]), 'modal')).toEqual([]);
    const many = Array.from({ length: 11 }, (_, i) => ({ text: plain(`o${i}`), value: `v${i}` }));
    expect(validateBlocks([input('ok', boxes({ options: many }))], 'modal')).toEqual([
      'must be less than 11 items [json-pointer:/blocks/0/element/options]',
    ]);
    expect(validateBlocks([input('ok', boxes({ options: [] }))], 'modal')).toEqual([
      'must be more than 0 items [json-pointer:/blocks/0/element/options]',
    ]);
    expect(
      validateBlocks([input('ok', boxes({ initial_options: [{ text: plain('No'), value: 'no' }] }))], 'modal'),
    ).toEqual(['initial_options must match the options [json-pointer:/blocks/0/element/initial_options]']);
    expect(validateBlocks([input('ok', boxes({ option_groups: [] }))], 'modal')).toEqual([
      "unsupported property 'option_groups' [json-pointer:/blocks/0/element/option_groups]",
    ]);
  });
});

describe('what the app receives', () => {
  let slack: LocalSlack;
  let close: () => Promise<void>;
  const submissions: Record<string, unknown>[] = [];
  const actions: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const register = (app: App) => {
      app.action<BlockAction>('open', async ({ ack, body, client }) => {
        await ack();
        await client.views.open({
          trigger_id: body.trigger_id,
          view: {
            type: 'modal',
            callback_id: 'pickers',
            title: plain('Pick') as never,
            submit: plain('Go') as never,
            blocks: [
              input('who', picker({ initial_user: CUSTOMER })),
              input('ok', boxes(), { optional: true }),
              input('must', boxes({ action_id: 'must_box' })),
            ] as never,
          },
        });
      });
      app.action<BlockAction>('chosen', async ({ ack, body }) => {
        await ack();
        actions.push(body.actions[0] as unknown as Record<string, unknown>);
      });
      app.view<ViewSubmitAction>('pickers', async ({ ack, view }) => {
        submissions.push(view.state.values as unknown as Record<string, unknown>);
        await ack();
      });
    };
    ({ slack, close } = await startStack([register]));
  });
  afterAll(() => close());

  async function openPickers() {
    if (!slack.messages(MANAGERS).some((m) => m.text === 'pickers')) {
      const bot = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, logger: quietLogger, retryConfig: { retries: 0 } });
      await bot.chat.postMessage({
        channel: MANAGERS,
        text: 'pickers',
        blocks: [
          {
            type: 'actions',
            elements: [
              { type: 'button', action_id: 'open', text: plain('Open') as never },
              { type: 'users_select', action_id: 'chosen' },
            ],
          },
        ],
      });
    }
    const msg = await slack.waitFor(() => slack.messages(MANAGERS).find((m) => m.text === 'pickers'));
    await slack.click(MANAGER, MANAGERS, msg.ts, 'open');
    const [view] = await slack.waitFor(() => slack.openViews(MANAGER).length === 1 && slack.openViews(MANAGER));
    return { msg, view: view! };
  }

  it('a view_submission carries selected_user and the selected options, as Slack sends them', async () => {
    const { view } = await openPickers();
    // A required checkbox group left empty is stopped by the client.
    const empty = await slack.submitView(MANAGER, view.id, {});
    expect(empty.outcome).toBe('client_errors');
    expect(Object.keys((empty.response as { errors: Record<string, string> }).errors)).toEqual(['must']);

    const ok = await slack.submitView(MANAGER, view.id, { who: { pick: GUEST }, must: { must_box: ['relink'] } });
    expect(ok.outcome).toBe('closed');
    expect(submissions.at(-1)).toEqual({
      who: { pick: { type: 'users_select', selected_user: GUEST } },
      ok: { box: { type: 'checkboxes', selected_options: [] } },
      must: {
        must_box: {
          type: 'checkboxes',
          selected_options: [
            {
              text: { type: 'plain_text', text: 'Yes, relink' },
              value: 'relink',
              description: { type: 'mrkdwn', text: '*replaces* the link' },
            },
          ],
        },
      },
    });
  });

  it('the initial user is submitted when nobody changes it; only members can be picked', async () => {
    const { view } = await openPickers();
    await expect(
      slack.submitView(MANAGER, view.id, { who: { pick: 'U0NOBODY99' }, must: { must_box: 'relink' } }),
    ).rejects.toThrow(/U0NOBODY99 is not a member/);
    await slack.submitView(MANAGER, view.id, { must: { must_box: 'relink' } });
    expect((submissions.at(-1) as { who: unknown }).who).toEqual({
      pick: { type: 'users_select', selected_user: CUSTOMER },
    });
  });

  it('choosing a person in a message sends block_actions with selected_user', async () => {
    const msg = slack.messages(MANAGERS).find((m) => m.text === 'pickers')!;
    await slack.click(MANAGER, MANAGERS, msg.ts, 'chosen', { value: BOT_USER });
    await slack.waitFor(() => actions.length === 1);
    expect(actions[0]).toMatchObject({ type: 'users_select', action_id: 'chosen', selected_user: BOT_USER });
  });
});
