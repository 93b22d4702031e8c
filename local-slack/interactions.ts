// Interactivity as Slack does it: block_actions from messages and App Home, view_submission with
// response_action handling and the modal stack, view_closed.
import { isObj, selectOptions } from './block-kit-elements.js';
import type { Deliverer } from './delivery.js';
import { VERIFICATION_TOKEN } from './events.js';
import { newResponseId, newTriggerId, nextTs } from './ids.js';
import { buildSubmission, checkboxOption, inputBlockIds, optionFor } from './interaction-state.js';
import type { Block, LocalSlackLogger, StoredMessage, StoredView, SubmitResult } from './types.js';
import { publicMessage } from './web-api-chat.js';
import {
  applyContent,
  checkView,
  clearModals,
  createView,
  MAX_STACK,
  popModal,
  publicView,
  pushModal,
} from './views.js';
import type { Workspace } from './workspace.js';

/** What the Slack client shows when the app did not answer a submission properly. */
export const CONNECTION_TROUBLE = 'We had some trouble connecting. Try again?';

type El = Record<string, unknown> & { type: string; action_id: string };

function findElement(blocks: Block[], actionId: string, blockId?: string): { block: Block; el: El } | undefined {
  for (const block of blocks) {
    if (blockId && block.block_id !== blockId) continue;
    const candidates: unknown[] = [
      ...(block.type === 'actions' && Array.isArray(block.elements) ? block.elements : []),
      block.accessory,
      block.type === 'input' && block.dispatch_action === true ? block.element : undefined,
    ];
    for (const el of candidates) if (isObj(el) && el.action_id === actionId) return { block, el: el as El };
  }
  return undefined;
}

function actionPayload(block: Block, el: El, value: string | undefined): Record<string, unknown> {
  const base = { action_id: el.action_id, block_id: block.block_id, action_ts: nextTs() };
  switch (el.type) {
    case 'button':
      return {
        ...base,
        type: 'button',
        text: el.text,
        ...(el.value !== undefined ? { value: el.value } : {}),
        ...(el.style ? { style: el.style } : {}),
      };
    case 'static_select': {
      if (value === undefined)
        throw new Error(
          `local-slack: choosing from ${el.action_id} needs opts.value (one of ${selectOptions(el)
            .map((o) => o.value)
            .join(', ')})`,
        );
      return {
        ...base,
        type: 'static_select',
        selected_option: optionFor(el, value),
        ...(el.placeholder ? { placeholder: el.placeholder } : {}),
      };
    }
    case 'users_select':
      return {
        ...base,
        type: 'users_select',
        selected_user: value ?? null,
        ...(el.initial_user ? { initial_user: el.initial_user } : {}),
      };
    case 'checkboxes':
      // A click toggles one box; opts.value is the option now ticked (none: all cleared).
      return { ...base, type: 'checkboxes', selected_options: value ? [checkboxOption(el, value)] : [] };
    case 'datepicker':
      return { ...base, type: 'datepicker', selected_date: value ?? null };
    case 'timepicker':
      return { ...base, type: 'timepicker', selected_time: value ?? null };
    default:
      return { ...base, type: el.type, value: value ?? null };
  }
}

export class Interactions {
  constructor(
    private readonly ws: Workspace,
    private readonly deliverer: Deliverer,
    private readonly baseUrl: string,
    private readonly logger: LocalSlackLogger,
  ) {}

  private user(userId: string) {
    const u = this.ws.users.get(userId);
    if (!u) throw new Error(`local-slack: unknown user ${userId}`);
    return { id: u.id, username: u.name, name: u.name, team_id: this.ws.id.teamId };
  }

  private base(userId: string) {
    return {
      user: this.user(userId),
      api_app_id: this.ws.id.appId,
      token: VERIFICATION_TOKEN,
      team: { id: this.ws.id.teamId, domain: 'local-slack' },
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  /** Every click or submission hands the app a fresh trigger_id, good once for a few seconds. */
  private trigger(userId: string): string {
    const id = newTriggerId();
    this.ws.triggers.set(id, { userId, createdAt: Date.now(), used: false });
    return id;
  }

  async click(
    userId: string,
    channelRef: string,
    messageTs: string,
    actionId: string,
    opts: { value?: string; blockId?: string; via?: number } = {},
  ): Promise<{ status: number; body: string }> {
    if (channelRef === 'home') return this.clickHome(userId, actionId, opts);
    const channel = this.ws.resolveChannel(channelRef);
    if (!channel) throw new Error(`local-slack: unknown channel ${channelRef}`);
    const ephemeral = this.ws.findEphemeral(userId, messageTs);
    const msg: StoredMessage | undefined = ephemeral ?? this.ws.findMessage(channel.id, messageTs);
    if (!msg) throw new Error(`local-slack: no message ${messageTs} in ${channel.id} visible to ${userId}`);
    const found = findElement(msg.blocks ?? [], actionId, opts.blockId);
    if (!found) throw new Error(`local-slack: message ${messageTs} has no element with action_id '${actionId}'`);
    const responseId = newResponseId();
    this.ws.responseUrls.set(responseId, {
      channel: channel.id,
      messageTs: msg.ts,
      userId,
      ephemeral: !!ephemeral,
      createdAt: Date.now(),
      uses: 0,
    });
    const payload = {
      type: 'block_actions',
      ...this.base(userId),
      trigger_id: this.trigger(userId),
      container: {
        type: 'message',
        message_ts: msg.ts,
        channel_id: channel.id,
        is_ephemeral: !!ephemeral,
        ...(msg.thread_ts && msg.thread_ts !== msg.ts ? { thread_ts: msg.thread_ts } : {}),
      },
      channel: { id: channel.id, name: channel.is_im ? 'directmessage' : channel.name },
      // Slack does not include the message for ephemeral sources.
      ...(ephemeral ? {} : { message: publicMessage(msg) }),
      state: { values: {} },
      response_url: `${this.baseUrl}/response/${responseId}`,
      actions: [actionPayload(found.block, found.el, opts.value)],
    };
    const res = await this.deliverer.interaction(payload, opts.via);
    return { status: res.status, body: res.body };
  }

  private async clickHome(userId: string, actionId: string, opts: { value?: string; blockId?: string; via?: number }) {
    const viewId = this.ws.homes.get(userId);
    const view = viewId ? this.ws.views.get(viewId) : undefined;
    if (!view) throw new Error(`local-slack: no App Home published for ${userId}`);
    const found = findElement(view.blocks, actionId, opts.blockId);
    if (!found) throw new Error(`local-slack: App Home of ${userId} has no element with action_id '${actionId}'`);
    const payload = {
      type: 'block_actions',
      ...this.base(userId),
      trigger_id: this.trigger(userId),
      container: { type: 'view', view_id: view.id },
      view: publicView(view),
      state: { values: view.state.values },
      actions: [actionPayload(found.block, found.el, opts.value)],
    };
    const res = await this.deliverer.interaction(payload, opts.via);
    return { status: res.status, body: res.body };
  }

  private topModal(userId: string, viewId: string): StoredView {
    const stack = this.ws.modalStack(userId);
    const top = stack[stack.length - 1];
    if (!top || top.id !== viewId) {
      throw new Error(
        `local-slack: view ${viewId} is not the modal ${userId} currently sees (${top?.id ?? 'none open'})`,
      );
    }
    return top;
  }

  async submitView(
    userId: string,
    viewId: string,
    given: Record<string, Record<string, unknown>>,
    via?: number,
  ): Promise<SubmitResult> {
    const view = this.topModal(userId, viewId);
    const { values, clientErrors } = buildSubmission(view, given, (id) => this.ws.users.has(id));
    view.state = { values };
    if (Object.keys(clientErrors).length) {
      view.errors = clientErrors;
      return { status: 0, response: { response_action: 'errors', errors: clientErrors }, outcome: 'client_errors' };
    }
    delete view.errors;
    delete view.failure;
    const payload = {
      type: 'view_submission',
      ...this.base(userId),
      trigger_id: this.trigger(userId),
      view: publicView(view),
      response_urls: [],
    };
    const res = await this.deliverer.interaction(payload, via);
    if (res.status < 200 || res.status >= 300) return this.failed(view, res.status, res.body, 'no 2xx answer in time');
    return this.applyResponse(userId, view, res.status, res.body);
  }

  private failed(view: StoredView, status: number, response: unknown, why: string): SubmitResult {
    this.logger.warn(`local-slack: view_submission for ${view.id} failed: ${why}`);
    view.failure = CONNECTION_TROUBLE;
    return { status, response, outcome: 'failed' };
  }

  private applyResponse(userId: string, view: StoredView, status: number, body: string): SubmitResult {
    if (body.trim() === '') {
      popModal(this.ws, userId);
      return { status, response: null, outcome: 'closed' };
    }
    let response: unknown;
    try {
      response = JSON.parse(body);
    } catch {
      return this.failed(view, status, body, 'response body is not JSON');
    }
    if (!isObj(response) || response.response_action === undefined) {
      popModal(this.ws, userId);
      return { status, response, outcome: 'closed' };
    }
    switch (response.response_action) {
      case 'clear':
        clearModals(this.ws, userId);
        return { status, response, outcome: 'cleared' };
      case 'errors': {
        const errors = response.errors;
        const inputs = inputBlockIds(view);
        if (!isObj(errors) || !Object.entries(errors).every(([k, v]) => inputs.has(k) && typeof v === 'string')) {
          return this.failed(view, status, response, 'response_action errors must map input block_ids to strings');
        }
        view.errors = errors as Record<string, string>;
        return { status, response, outcome: 'errors' };
      }
      case 'update': {
        const invalid = checkView(response.view, 'modal');
        if (invalid) return this.failed(view, status, response, `invalid view: ${invalid.errors?.join('; ')}`);
        applyContent(view, response.view as Record<string, unknown>);
        return { status, response, outcome: 'updated' };
      }
      case 'push': {
        const invalid = checkView(response.view, 'modal');
        if (invalid) return this.failed(view, status, response, `invalid view: ${invalid.errors?.join('; ')}`);
        if (this.ws.modalStack(userId).length >= MAX_STACK)
          return this.failed(view, status, response, 'push_limit_reached');
        pushModal(this.ws, userId, createView(this.ws, response.view as Record<string, unknown>, userId, view));
        return { status, response, outcome: 'pushed' };
      }
      default:
        return this.failed(view, status, response, `unknown response_action '${String(response.response_action)}'`);
    }
  }

  /** The user dismissed the top modal; the app hears about it only if it asked (notify_on_close). */
  async closeView(userId: string, viewId: string, via?: number): Promise<{ status: number; notified: boolean }> {
    const view = this.topModal(userId, viewId);
    const cleared = view.clear_on_close;
    // view_closed carries no trigger_id: nothing can be opened from a dismissal.
    const payload = view.notify_on_close
      ? { type: 'view_closed', ...this.base(userId), view: publicView(view), is_cleared: cleared }
      : undefined;
    if (cleared) clearModals(this.ws, userId);
    else popModal(this.ws, userId);
    if (!payload) return { status: 0, notified: false };
    const res = await this.deliverer.interaction(payload, via);
    return { status: res.status, notified: true };
  }
}
