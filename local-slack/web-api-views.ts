// views.* methods. Opening or pushing a modal needs a trigger_id from a live interaction, as in Slack.
import { slackError, type SlackError } from './block-kit.js';
import type { StoredView } from './types.js';
import { type ApiArgs, type ApiContext, type ApiResult, type Method, str } from './web-api-args.js';
import {
  applyContent,
  checkView,
  clearModals,
  createView,
  externalIdTaken,
  MAX_STACK,
  publicView,
  pushModal,
} from './views.js';
import type { Trigger } from './workspace.js';

function consumeTrigger(args: ApiArgs, ctx: ApiContext): Trigger | SlackError {
  const id = str(args, 'trigger_id');
  if (!id) return slackError('invalid_arguments', ['missing required field: trigger_id [json-pointer:/trigger_id]']);
  const t = ctx.ws.triggers.get(id);
  if (!t) return slackError('invalid_trigger_id');
  if (t.used) return slackError('exchanged_trigger_id');
  if (Date.now() - t.createdAt > ctx.triggerTtlMs) return slackError('expired_trigger_id');
  t.used = true;
  return t;
}

const isError = (v: unknown): v is SlackError => typeof v === 'object' && v !== null && (v as SlackError).ok === false;

/** What views.open and views.push both check: a valid modal, a free external_id, a live trigger. */
function acceptModal(args: Parameters<Method>[0], ctx: Parameters<Method>[1]) {
  const invalid = checkView(args.view, 'modal');
  if (invalid) return invalid;
  const raw = args.view as Record<string, unknown>;
  if (externalIdTaken(ctx.ws, raw.external_id)) return slackError('duplicate_external_id');
  const trigger = consumeTrigger(args, ctx);
  if (isError(trigger)) return trigger;
  return { raw, trigger };
}

const open: Method = (args, ctx) => {
  const accepted = acceptModal(args, ctx);
  if ('ok' in accepted) return accepted;
  const { raw, trigger } = accepted;
  // A new views.open replaces whatever modal stack the user had.
  clearModals(ctx.ws, trigger.userId);
  const view = createView(ctx.ws, raw, trigger.userId);
  pushModal(ctx.ws, trigger.userId, view);
  return { ok: true, view: publicView(view) };
};

const push: Method = (args, ctx) => {
  const accepted = acceptModal(args, ctx);
  if ('ok' in accepted) return accepted;
  const { raw, trigger } = accepted;
  const stack = ctx.ws.modalStack(trigger.userId);
  const top = stack[stack.length - 1];
  if (!top) return slackError('not_found');
  if (stack.length >= MAX_STACK) return slackError('push_limit_reached');
  const view = createView(ctx.ws, raw, trigger.userId, top);
  pushModal(ctx.ws, trigger.userId, view);
  return { ok: true, view: publicView(view) };
};

function findView(args: ApiArgs, ctx: ApiContext): StoredView | SlackError {
  const viewId = str(args, 'view_id');
  const externalId = str(args, 'external_id');
  if (!viewId === !externalId) {
    return slackError('invalid_arguments', [
      'exactly one of view_id or external_id is required [json-pointer:/view_id]',
    ]);
  }
  const found = viewId
    ? ctx.ws.views.get(viewId)
    : [...ctx.ws.views.values()].find((v) => v.external_id === externalId);
  return found ?? slackError('not_found');
}

const update: Method = (args, ctx) => {
  const view = findView(args, ctx);
  if (isError(view)) return view;
  const invalid = checkView(args.view, view.type);
  if (invalid) return invalid;
  const hash = str(args, 'hash');
  if (hash && hash !== view.hash) return slackError('hash_conflict');
  const raw = args.view as Record<string, unknown>;
  if (externalIdTaken(ctx.ws, raw.external_id, view.id)) return slackError('duplicate_external_id');
  applyContent(view, raw);
  return { ok: true, view: publicView(view) };
};

const publish: Method = (args, ctx) => {
  const userId = str(args, 'user_id');
  if (!userId) return slackError('invalid_arguments', ['missing required field: user_id [json-pointer:/user_id]']);
  if (!ctx.ws.users.has(userId)) return slackError('user_not_found');
  const invalid = checkView(args.view, 'home');
  if (invalid) return invalid;
  const raw = args.view as Record<string, unknown>;
  const existingId = ctx.ws.homes.get(userId);
  const existing = existingId ? ctx.ws.views.get(existingId) : undefined;
  const hash = str(args, 'hash');
  if (hash && existing && hash !== existing.hash) return slackError('hash_conflict');
  if (externalIdTaken(ctx.ws, raw.external_id, existing?.id)) return slackError('duplicate_external_id');
  if (existing) {
    applyContent(existing, raw);
    return { ok: true, view: publicView(existing) };
  }
  const view = createView(ctx.ws, raw, userId);
  ctx.ws.homes.set(userId, view.id);
  return { ok: true, view: publicView(view) };
};

export const viewMethods: Record<string, (args: ApiArgs, ctx: ApiContext) => ApiResult> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
