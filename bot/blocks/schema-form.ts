import type { z } from 'zod';
import type { ArgumentIssue } from '../../agent/approvals/ledger.js';
import { isoFromPickers, pickerValues } from './date-time-fields.js';
import { labelOf } from './format.js';
import { fit, plain, type Block } from './types.js';

/**
 * Modal inputs generated from a tool's zod 4 input schema, and the way back: the submitted view
 * state → arguments → `parseToolArgs` issues → inline errors on the right inputs. One input per
 * leaf, `block_id` = the argument's dotted path, so an issue path IS a block id. A date-time is
 * the exception: a datepicker (block_id = its path) and a timepicker (path + TIME_SUFFIX).
 */

export type FieldKind = 'text' | 'multiline' | 'select' | 'boolean' | 'number' | 'datetime';

/** The block_id of a date-time's timepicker: its path plus this (a path never has a '#'). */
export const TIME_SUFFIX = '#time';

export interface FormField {
  path: string;
  label: string;
  hint?: string;
  kind: FieldKind;
  options?: { value: string; label: string }[];
  optional: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  integer?: boolean;
}

/** Slack's plain_text_input holds at most 3000 characters. */
export const SLACK_INPUT_MAX = 3000;
const MULTILINE_KEYS = new Set(['body', 'description', 'notes', 'message']);
export const ACTION_ID = 'value';

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: unknown;
      in?: unknown;
      shape?: Record<string, unknown>;
      entries?: Record<string, string | number>;
    };
  };
  description?: string;
  maxLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  options?: readonly (string | number)[];
  meta?: () => { format?: string } | undefined;
}

/**
 * Peel optional/default/nullable/pipe wrappers, keeping whether the value may be left out and the first description.
 */
function unwrap(schema: unknown): { inner: ZodInternals; optional: boolean; description?: string; format?: string } {
  let s = schema as ZodInternals;
  let optional = false;
  let description = s.description;
  let format = s.meta?.()?.format;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def;
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') {
      optional = true;
      s = def.innerType as ZodInternals;
    } else if (def.type === 'readonly' || def.type === 'catch' || def.type === 'nonoptional') {
      s = def.innerType as ZodInternals;
    } else if (def.type === 'pipe') {
      s = def.in as ZodInternals;
    } else break;
    description ??= s.description;
    format ??= s.meta?.()?.format;
  }
  return { inner: s, optional, description, format };
}

/**
 * Walk an object schema into form fields. `skip` paths are not editable (e.g. `customer_id`: an
 * approval belongs to its conversation's customer); `overrides` replace a field (a service id
 * becomes a select of services). Unsupported leaves (arrays…) are left out and keep their value.
 */
export function formFields(
  schema: z.ZodType,
  opts: { skip?: string[]; overrides?: Record<string, Partial<FormField>> } = {},
): FormField[] {
  const out: FormField[] = [];
  const walk = (node: unknown, path: string, parentOptional: boolean) => {
    const { inner, optional, description, format } = unwrap(node);
    const def = inner._zod.def;
    const isOptional = parentOptional || optional;
    if (opts.skip?.includes(path)) return;
    if (def.type === 'object' && def.shape) {
      for (const [key, child] of Object.entries(def.shape)) walk(child, path ? `${path}.${key}` : key, isOptional);
      return;
    }
    const leaf = path.split('.').pop() ?? path;
    const base = { path, label: labelOf(path), hint: description, optional: isOptional };
    let f: FormField | undefined;
    if (def.type === 'string' && format === 'date-time') {
      // Picked, not typed: the schema's "ISO 8601 with offset" is the form's business, not the manager's.
      f = { ...base, hint: undefined, kind: 'datetime' };
    } else if (def.type === 'string') {
      const maxLength = inner.maxLength ?? undefined;
      const multiline = MULTILINE_KEYS.has(leaf) || (maxLength ?? 0) > 300;
      f = { ...base, kind: multiline ? 'multiline' : 'text', maxLength: maxLength ?? undefined };
    } else if (def.type === 'enum') {
      const values = Object.values(def.entries ?? {}).map(String);
      f = { ...base, kind: 'select', options: values.map((v) => ({ value: v, label: v })) };
    } else if (def.type === 'boolean') {
      f = { ...base, kind: 'boolean' };
    } else if (def.type === 'number') {
      f = {
        ...base,
        kind: 'number',
        integer: inner.isInt === true,
        min: Number.isFinite(inner.minValue) ? (inner.minValue as number) : undefined,
        max: Number.isFinite(inner.maxValue) ? (inner.maxValue as number) : undefined,
      };
    }
    if (!f) return;
    out.push({ ...f, ...opts.overrides?.[path] } as FormField);
  };
  walk(schema, '', false);
  return out;
}

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (!cur[key] || typeof cur[key] !== 'object') cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]!] = value;
}

/** Values too long for a Slack input stay as they are and are shown, not edited. */
export const tooLongToEdit = (f: FormField, value: unknown) =>
  (f.kind === 'text' || f.kind === 'multiline') && typeof value === 'string' && value.length > SLACK_INPUT_MAX;

const option = (value: string, label: string) => ({ text: plain(fit(label, 75)), value });

/**
 * Input blocks for the fields, prefilled from `values`; `placeholders` (e.g. "Now: …") per path.
 * Date-times are shown and picked in `timeZone` (the business's); without one they are typed.
 */
export function inputBlocks(
  fields: FormField[],
  values: unknown,
  placeholders: Record<string, string> = {},
  opts: { timeZone?: string } = {},
): Block[] {
  const blocks: Block[] = [];
  for (const f of fields) {
    const current = getPath(values, f.path);
    if (f.kind === 'datetime' && opts.timeZone) {
      blocks.push(...dateTimeBlocks(f, current, opts.timeZone));
      continue;
    }
    if (tooLongToEdit(f, current)) {
      blocks.push({
        type: 'context',
        elements: [
          plain(
            fit(
              `${f.label}: ${(current as string).length} characters, too long to edit here; it is kept as proposed.`,
              2000,
            ),
          ),
        ],
      });
      continue;
    }
    const placeholder = placeholders[f.path] ? { placeholder: plain(fit(placeholders[f.path]!, 150)) } : {};
    let element: Record<string, unknown>;
    switch (f.kind) {
      case 'text':
      case 'multiline':
      case 'datetime':
        element = {
          type: 'plain_text_input',
          action_id: ACTION_ID,
          multiline: f.kind === 'multiline',
          max_length: Math.min(f.maxLength ?? SLACK_INPUT_MAX, SLACK_INPUT_MAX),
          ...(typeof current === 'string' && current !== '' ? { initial_value: current } : {}),
          ...placeholder,
        };
        break;
      case 'select': {
        const options = (f.options ?? []).slice(0, 100).map((o) => option(o.value, o.label));
        const initial = options.find((o) => o.value === String(current ?? ''));
        element = {
          type: 'static_select',
          action_id: ACTION_ID,
          options,
          ...(initial ? { initial_option: initial } : {}),
          ...placeholder,
        };
        break;
      }
      case 'boolean': {
        const options = [option('yes', 'Yes'), option('no', 'No')];
        const initial = current === true ? options[0] : current === false ? options[1] : undefined;
        element = {
          type: 'static_select',
          action_id: ACTION_ID,
          options,
          ...(initial ? { initial_option: initial } : {}),
          ...placeholder,
        };
        break;
      }
      case 'number':
        element = {
          type: 'number_input',
          action_id: ACTION_ID,
          is_decimal_allowed: !f.integer,
          ...(typeof current === 'number' ? { initial_value: String(current) } : {}),
          ...(f.min !== undefined ? { min_value: String(f.min) } : {}),
          ...(f.max !== undefined ? { max_value: String(f.max) } : {}),
          ...placeholder,
        };
        break;
    }
    blocks.push({
      type: 'input',
      block_id: f.path,
      optional: f.optional,
      label: plain(fit(f.label, 2000)),
      ...(f.hint ? { hint: plain(fit(f.hint, 2000)) } : {}),
      element,
    } as unknown as Block);
  }
  return blocks;
}

/** A date-time as two inputs, the day and the time of day, in the business's time zone. */
function dateTimeBlocks(f: FormField, current: unknown, timeZone: string): Block[] {
  const initial = typeof current === 'string' ? pickerValues(current, timeZone) : undefined;
  return [
    {
      type: 'input',
      block_id: f.path,
      optional: f.optional,
      label: plain(fit(`${f.label}: day`, 2000)),
      element: {
        type: 'datepicker',
        action_id: ACTION_ID,
        ...(initial ? { initial_date: initial.date } : {}),
        placeholder: plain('Choose a day'),
      },
    },
    {
      type: 'input',
      block_id: `${f.path}${TIME_SUFFIX}`,
      optional: f.optional,
      label: plain(fit(`${f.label}: time`, 2000)),
      hint: plain(fit(`In the business's time zone (${timeZone}).`, 2000)),
      element: {
        type: 'timepicker',
        action_id: ACTION_ID,
        ...(initial ? { initial_time: initial.time } : {}),
        timezone: timeZone,
        placeholder: plain('Choose a time'),
      },
    },
  ] as unknown as Block[];
}

/** One submitted input as Slack sends it in view.state.values. */
export interface SubmittedValue {
  type?: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_user?: string | null;
  selected_date?: string | null;
  selected_time?: string | null;
  selected_options?: { value: string }[] | null;
}
export type SubmittedState = Record<string, Record<string, SubmittedValue | undefined> | undefined>;

/** The raw entry of one input, whatever its element type (undefined when left empty). */
export function submitted(state: SubmittedState, blockId: string, actionId = ACTION_ID): string | undefined {
  const v = state[blockId]?.[actionId];
  const raw =
    v?.selected_option?.value ?? v?.selected_user ?? v?.selected_date ?? v?.selected_time ?? v?.value ?? undefined;
  return raw === null || raw === undefined || raw === '' ? undefined : raw;
}

/**
 * Arguments from a submitted form. Starts from `base` (the fixed and not-editable values, taken
 * from the approval in Postgres, never from the payload), then sets every field that was filled
 * in. Empty fields are left out, so optional ones are simply not changed and required ones are
 * reported by the schema.
 */
export function argsFromSubmission(
  fields: FormField[],
  state: SubmittedState,
  base: Record<string, unknown>,
  opts: { timeZone?: string } = {},
): Record<string, unknown> {
  const args = structuredClone(base);
  for (const f of fields) {
    if (!state[f.path]) continue; // not an input (too long to edit): keeps the base value
    if (f.kind === 'datetime' && opts.timeZone && state[`${f.path}${TIME_SUFFIX}`]) {
      const picked = pickedDateTime(f, state, opts.timeZone);
      if (picked.iso) setPath(args, f.path, picked.iso);
      continue;
    }
    const raw = submitted(state, f.path);
    if (raw === undefined) continue;
    let value: unknown = raw;
    if (f.kind === 'boolean') value = raw === 'yes' ? true : raw === 'no' ? false : raw;
    else if (f.kind === 'number') value = raw.trim() === '' || Number.isNaN(Number(raw)) ? raw : Number(raw);
    setPath(args, f.path, value);
  }
  return args;
}

function pickedDateTime(f: FormField, state: SubmittedState, timeZone: string): { iso?: string; problem?: string } {
  const date = submitted(state, f.path);
  const time = submitted(state, `${f.path}${TIME_SUFFIX}`);
  if (!date && !time) return {};
  if (!date || !time) return { problem: 'Choose both a day and a time.' };
  const iso = isoFromPickers(date, time, timeZone);
  return iso
    ? { iso }
    : { problem: `${time} doesn't exist on ${date} in ${timeZone} (the clocks change); choose another time.` };
}

/** What the pickers of the date-times can't turn into a time: an issue on the day input. */
export function datetimeIssues(fields: FormField[], state: SubmittedState, timeZone: string): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  for (const f of fields) {
    if (f.kind !== 'datetime' || !state[f.path] || !state[`${f.path}${TIME_SUFFIX}`]) continue;
    const { problem } = pickedDateTime(f, state, timeZone);
    if (problem) issues.push({ path: f.path, message: problem });
  }
  return issues;
}

/** An issue in words for the form: a refused time comes with the free times the tool offered. */
export function issueText(issue: ArgumentIssue): string {
  const shown = (issue.alternatives ?? [])
    .map((a) => (typeof a.display === 'string' ? a.display : undefined))
    .filter((d): d is string => Boolean(d))
    .slice(0, 3);
  if (!shown.length || issue.message.includes(shown[0]!)) return issue.message;
  return `${issue.message.replace(/\s*$/, '')} Free times nearby: ${shown.join('; ')}.`;
}

function friendly(message: string): string {
  if (/received undefined/i.test(message)) return 'This is required.';
  const m = message.replace(/^Invalid input: /, '');
  return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? '' : '.');
}

/**
 * `response_action: 'errors'` for schema issues: each issue goes to the input with its path, or
 * to the first input under it (an object-level rule such as "give at least one field"), or to the
 * first input of all.
 */
export function errorsForIssues(issues: ArgumentIssue[], blockIds: string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    let target = blockIds.find((id) => id === issue.path);
    for (let p = issue.path; !target && p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
      target = blockIds.find((id) => id === p || id.startsWith(`${p}.`));
    }
    target ??= blockIds[0];
    if (!target) continue;
    const text = friendly(issueText(issue));
    errors[target] = errors[target] ? fit(`${errors[target]} ${text}`, 300) : fit(text, 300);
  }
  return errors;
}
