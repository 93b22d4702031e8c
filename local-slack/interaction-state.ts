// What a user "typed" into a modal, turned into Slack's view.state.values, plus the checks the Slack
// client makes before it lets a submission through (those never reach the app).
import { isObj, selectOptions } from './block-kit-elements.js';
import type { Block, CheckboxOption, StoredView, ViewStateValue, ViewStateValues } from './types.js';

type El = Record<string, unknown> & { type: string; action_id: string };

export const REQUIRED_MESSAGE = 'Please complete this required field.';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function inputBlocks(view: StoredView): { block: Block; el: El }[] {
  return view.blocks
    .filter((b) => b.type === 'input' && isObj(b.element))
    .map((b) => ({ block: b, el: b.element as El }));
}

export function inputBlockIds(view: StoredView): Set<string> {
  return new Set(inputBlocks(view).map((x) => x.block.block_id as string));
}

export function optionFor(el: Record<string, unknown>, value: string) {
  const o = selectOptions(el).find((x) => x.value === value);
  if (!o) throw new Error(`local-slack: '${value}' is not an option of ${String(el.action_id)}`);
  return { text: o.text as { type: 'plain_text'; text: string }, value };
}

/** A checkbox option as the client submits it (the element's own, with its description). */
export function checkboxOption(el: Record<string, unknown>, value: string): CheckboxOption {
  const o = (Array.isArray(el.options) ? el.options : []).find((x) => isObj(x) && x.value === value);
  if (!isObj(o)) throw new Error(`local-slack: '${value}' is not an option of ${String(el.action_id)}`);
  return {
    text: o.text as CheckboxOption['text'],
    value,
    ...(isObj(o.description) ? { description: o.description as CheckboxOption['description'] } : {}),
  };
}

/** Who a users_select may hold: the client offers workspace members only. */
export type IsMember = (userId: string) => boolean;

function initialState(el: El): ViewStateValue {
  switch (el.type) {
    case 'users_select':
      return { type: el.type, selected_user: (el.initial_user as string | undefined) ?? null };
    case 'checkboxes':
      return {
        type: el.type,
        selected_options: (Array.isArray(el.initial_options) ? el.initial_options : [])
          .filter(isObj)
          .map((o) => checkboxOption(el, String(o.value))),
      };
    case 'static_select':
      return {
        type: el.type,
        selected_option: isObj(el.initial_option) ? optionFor(el, String(el.initial_option.value)) : null,
      };
    case 'datepicker':
      return { type: el.type, selected_date: (el.initial_date as string | undefined) ?? null };
    case 'timepicker':
      return { type: el.type, selected_time: (el.initial_time as string | undefined) ?? null };
    default:
      return { type: el.type, value: (el.initial_value as string | undefined) ?? null };
  }
}

function fromInput(el: El, v: unknown, isMember: IsMember): ViewStateValue {
  if (isObj(v) && typeof v.type === 'string') return v as unknown as ViewStateValue;
  if (el.type === 'checkboxes') {
    const picked = Array.isArray(v) ? v.map(String) : v === null || v === undefined || v === '' ? [] : [String(v)];
    return { type: el.type, selected_options: picked.map((value) => checkboxOption(el, value)) };
  }
  const s = v === null || v === undefined || v === '' ? null : String(v);
  switch (el.type) {
    case 'users_select':
      if (s !== null && !isMember(s)) throw new Error(`local-slack: ${s} is not a member of this workspace`);
      return { type: el.type, selected_user: s };
    case 'static_select':
      return { type: el.type, selected_option: s === null ? null : optionFor(el, s) };
    case 'datepicker':
      return { type: el.type, selected_date: s };
    case 'timepicker':
      return { type: el.type, selected_time: s };
    default:
      return { type: el.type, value: s };
  }
}

function isEmpty(s: ViewStateValue): boolean {
  if (s.selected_options) return s.selected_options.length === 0;
  return (s.value ?? s.selected_option ?? s.selected_date ?? s.selected_time ?? s.selected_user ?? null) === null;
}

function clientCheck(el: El, s: ViewStateValue, optional: boolean): string | undefined {
  if (isEmpty(s)) return optional ? undefined : REQUIRED_MESSAGE;
  const v = s.value ?? '';
  if (el.type === 'plain_text_input') {
    if (typeof el.min_length === 'number' && v.length < el.min_length)
      return `Must be at least ${el.min_length} characters.`;
    if (typeof el.max_length === 'number' && v.length > el.max_length)
      return `Must be ${el.max_length} characters or fewer.`;
  }
  if (el.type === 'email_text_input' && !EMAIL.test(v)) return 'Please enter a valid email address.';
  if (el.type === 'number_input') {
    const n = Number(v);
    if (v.trim() === '' || Number.isNaN(n)) return 'Please enter a number.';
    if (el.is_decimal_allowed !== true && !Number.isInteger(n)) return 'Please enter a whole number.';
    if (typeof el.min_value === 'string' && n < Number(el.min_value))
      return `Please enter a number of at least ${el.min_value}.`;
    if (typeof el.max_value === 'string' && n > Number(el.max_value))
      return `Please enter a number no greater than ${el.max_value}.`;
  }
  return undefined;
}

/**
 * Builds view.state.values for every input block: given values win, then what the user already
 * entered, then the element's initial value (Slack submits those too).
 */
export function buildSubmission(
  view: StoredView,
  given: Record<string, Record<string, unknown>>,
  isMember: IsMember = () => true,
): { values: ViewStateValues; clientErrors: Record<string, string> } {
  const inputs = inputBlocks(view);
  for (const [blockId, byAction] of Object.entries(given)) {
    const match = inputs.find((x) => x.block.block_id === blockId);
    if (!match) throw new Error(`local-slack: view ${view.id} has no input block '${blockId}'`);
    for (const actionId of Object.keys(byAction)) {
      if (match.el.action_id !== actionId)
        throw new Error(`local-slack: input block '${blockId}' has no action_id '${actionId}'`);
    }
  }
  const values: ViewStateValues = {};
  const clientErrors: Record<string, string> = {};
  for (const { block, el } of inputs) {
    const blockId = block.block_id as string;
    const provided = given[blockId]?.[el.action_id];
    const state =
      provided !== undefined
        ? fromInput(el, provided, isMember)
        : (view.state.values[blockId]?.[el.action_id] ?? initialState(el));
    values[blockId] = { [el.action_id]: state };
    const problem = clientCheck(el, state, block.optional === true);
    if (problem) clientErrors[blockId] = problem;
  }
  return { values, clientErrors };
}
