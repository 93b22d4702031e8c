// Validates the Block Kit subset the app may send, with Slack's limits, so a payload that real Slack
// would refuse fails here too instead of first failing in production.
import {
  allowKeys,
  checkBoolean,
  checkElement,
  checkString,
  checkText,
  checkTextObject,
  type Ctx,
  fail,
  isObj,
  type Obj,
  type Surface,
} from './block-kit-elements.js';

export type { Surface } from './block-kit-elements.js';

export interface SlackError {
  ok: false;
  error: string;
  errors?: string[];
  response_metadata?: { messages: string[] };
}

export const MAX_MESSAGE_TEXT = 40000;
const MAX_BLOCKS: Record<Surface, number> = { message: 50, modal: 100, home: 100 };
const ACCESSORY = ['button', 'static_select', 'users_select', 'checkboxes', 'datepicker', 'timepicker', 'image'];
const ACTION_ELEMENTS = ['button', 'static_select', 'users_select', 'checkboxes', 'datepicker', 'timepicker'];
const INPUT_ELEMENTS = [
  'plain_text_input',
  'static_select',
  'users_select',
  'checkboxes',
  'datepicker',
  'timepicker',
  'number_input',
  'email_text_input',
];

function checkActionIdsUnique(ctx: Ctx, elements: unknown[], ptr: string): void {
  const seen = new Set<string>();
  elements.forEach((el, i) => {
    if (!isObj(el) || typeof el.action_id !== 'string') return;
    if (seen.has(el.action_id))
      fail(ctx, `duplicate action_id '${el.action_id}' within block`, `${ptr}/${i}/action_id`);
    seen.add(el.action_id);
  });
}

function checkElementList(ctx: Ctx, b: Obj, ptr: string, max: number, check: (el: unknown, at: string) => void): void {
  const els = b.elements;
  const at = `${ptr}/elements`;
  if (!Array.isArray(els)) return fail(ctx, 'missing required field: elements', ptr);
  if (els.length < 1) fail(ctx, 'must be more than 0 items', at);
  if (els.length > max) fail(ctx, `must be less than ${max + 1} items`, at);
  els.forEach((el, i) => check(el, `${at}/${i}`));
}

const BLOCKS: Record<string, (ctx: Ctx, b: Obj, ptr: string) => void> = {
  header(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'text', 'block_id'], ptr);
    checkText(ctx, b, 'text', ptr, { plainOnly: true, max: 150, required: true });
  },
  section(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'text', 'fields', 'accessory', 'block_id', 'expand'], ptr);
    if (b.text === undefined && b.fields === undefined) fail(ctx, 'must provide text or fields', ptr);
    checkText(ctx, b, 'text', ptr, { max: 3000 });
    checkBoolean(ctx, b, 'expand', ptr);
    if (b.fields !== undefined) {
      if (!Array.isArray(b.fields)) fail(ctx, 'must be an array', `${ptr}/fields`);
      else {
        if (b.fields.length < 1) fail(ctx, 'must be more than 0 items', `${ptr}/fields`);
        if (b.fields.length > 10) fail(ctx, 'must be less than 11 items', `${ptr}/fields`);
        b.fields.forEach((f, i) => checkTextObject(ctx, f, `${ptr}/fields/${i}`, { max: 2000 }));
      }
    }
    if (b.accessory !== undefined) checkElement(ctx, b.accessory, `${ptr}/accessory`, ACCESSORY);
  },
  context(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'elements', 'block_id'], ptr);
    checkElementList(ctx, b, ptr, 10, (el, at) => {
      if (isObj(el) && el.type === 'image') checkElement(ctx, el, at, ['image']);
      else checkTextObject(ctx, el, at, { max: 3000 });
    });
  },
  divider(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'block_id'], ptr);
  },
  actions(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'elements', 'block_id'], ptr);
    checkElementList(ctx, b, ptr, 25, (el, at) => checkElement(ctx, el, at, ACTION_ELEMENTS));
    if (Array.isArray(b.elements)) checkActionIdsUnique(ctx, b.elements, `${ptr}/elements`);
  },
  input(ctx, b, ptr) {
    allowKeys(ctx, b, ['type', 'label', 'element', 'block_id', 'hint', 'optional', 'dispatch_action'], ptr);
    checkText(ctx, b, 'label', ptr, { plainOnly: true, max: 2000, required: true });
    checkText(ctx, b, 'hint', ptr, { plainOnly: true, max: 2000 });
    checkBoolean(ctx, b, 'optional', ptr);
    checkBoolean(ctx, b, 'dispatch_action', ptr);
    if (b.element === undefined) fail(ctx, 'missing required field: element', ptr);
    else checkElement(ctx, b.element, `${ptr}/element`, INPUT_ELEMENTS);
  },
  rich_text(ctx, b, ptr) {
    // Accepted so the app is not blocked, but only its shape is checked: local-slack does not model rich_text.
    allowKeys(ctx, b, ['type', 'elements', 'block_id'], ptr);
    if (!Array.isArray(b.elements)) fail(ctx, 'missing required field: elements', ptr);
  },
};

export function validateBlocks(blocks: unknown, surface: Surface, ptr = '/blocks'): string[] {
  const ctx: Ctx = { errors: [], surface };
  if (!Array.isArray(blocks)) {
    fail(ctx, 'must be an array', ptr);
    return ctx.errors;
  }
  const max = MAX_BLOCKS[surface];
  if (blocks.length > max) fail(ctx, `must be less than ${max + 1} items`, ptr);
  const blockIds = new Set<string>();
  blocks.forEach((b, i) => {
    const at = `${ptr}/${i}`;
    if (!isObj(b)) return fail(ctx, 'must provide an object', at);
    const check = typeof b.type === 'string' ? BLOCKS[b.type] : undefined;
    if (!check)
      return fail(ctx, `unsupported block type '${String(b.type)}' (not supported by local-slack)`, `${at}/type`);
    checkString(ctx, b, 'block_id', at, { min: 1, max: 255 });
    if (typeof b.block_id === 'string') {
      if (blockIds.has(b.block_id)) fail(ctx, `duplicate block_id '${b.block_id}'`, `${at}/block_id`);
      blockIds.add(b.block_id);
    }
    check(ctx, b, at);
  });
  return ctx.errors;
}

const MODAL_KEYS = [
  'type',
  'title',
  'blocks',
  'close',
  'submit',
  'private_metadata',
  'callback_id',
  'clear_on_close',
  'notify_on_close',
  'external_id',
  'submit_disabled',
];
const HOME_KEYS = ['type', 'blocks', 'private_metadata', 'callback_id', 'external_id'];

/** Checks a modal or home view; `expected` restricts the type (views.publish needs home, views.open a modal). */
export function validateView(view: unknown, expected?: 'modal' | 'home'): string[] {
  const ctx: Ctx = { errors: [], surface: 'modal' };
  const ptr = '/view';
  if (!isObj(view)) {
    fail(ctx, 'must provide an object', ptr);
    return ctx.errors;
  }
  if (view.type !== 'modal' && view.type !== 'home') {
    fail(ctx, "must be one of 'modal', 'home'", `${ptr}/type`);
    return ctx.errors;
  }
  if (expected && view.type !== expected) {
    fail(ctx, `must be '${expected}' for this method`, `${ptr}/type`);
    return ctx.errors;
  }
  const isModal = view.type === 'modal';
  allowKeys(ctx, view, isModal ? MODAL_KEYS : HOME_KEYS, ptr);
  checkString(ctx, view, 'private_metadata', ptr, { max: 3000 });
  checkString(ctx, view, 'callback_id', ptr, { max: 255 });
  checkString(ctx, view, 'external_id', ptr, { max: 255 });
  if (isModal) {
    checkText(ctx, view, 'title', ptr, { plainOnly: true, max: 24, required: true });
    checkText(ctx, view, 'submit', ptr, { plainOnly: true, max: 24 });
    checkText(ctx, view, 'close', ptr, { plainOnly: true, max: 24 });
    for (const k of ['clear_on_close', 'notify_on_close', 'submit_disabled']) checkBoolean(ctx, view, k, ptr);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === 'input');
    if (hasInput && view.submit === undefined)
      fail(ctx, 'submit is required when the view contains input blocks', `${ptr}/submit`);
  }
  if (view.blocks === undefined) fail(ctx, 'missing required field: blocks', ptr);
  else ctx.errors.push(...validateBlocks(view.blocks, isModal ? 'modal' : 'home', `${ptr}/blocks`));
  return ctx.errors;
}

export function slackError(error: string, errors?: string[]): SlackError {
  if (!errors?.length) return { ok: false, error };
  return { ok: false, error, errors, response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } };
}

/**
 * Message-surface checks shared by chat.postMessage, chat.update, chat.postEphemeral and response_url.
 * `requireContent` is false for chat.update, where omitted fields keep their old value.
 */
export function validateMessageContent(
  args: { text?: unknown; blocks?: unknown; attachments?: unknown },
  requireContent = true,
): SlackError | undefined {
  if (args.text !== undefined && typeof args.text !== 'string')
    return slackError('invalid_arguments', ['must be a string [json-pointer:/text]']);
  if (typeof args.text === 'string' && args.text.length > MAX_MESSAGE_TEXT) return slackError('msg_too_long');
  if (args.blocks !== undefined) {
    const errors = validateBlocks(args.blocks, 'message');
    if (errors.length) return slackError('invalid_blocks', errors);
  }
  if (args.attachments !== undefined && !Array.isArray(args.attachments)) return slackError('invalid_attachments');
  const hasBlocks = Array.isArray(args.blocks) && args.blocks.length > 0;
  const hasAttachments = Array.isArray(args.attachments) && args.attachments.length > 0;
  if (requireContent && !args.text && !hasBlocks && !hasAttachments) return slackError('no_text');
  return undefined;
}
