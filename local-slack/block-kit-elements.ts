// Element-level Block Kit checks. Messages mimic Slack's: "<problem> [json-pointer:/blocks/0/text/text]".

export type Surface = 'message' | 'modal' | 'home';

export interface Ctx {
  errors: string[];
  surface: Surface;
}

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fail(ctx: Ctx, message: string, ptr: string): void {
  ctx.errors.push(`${message} [json-pointer:${ptr}]`);
}

// Slack rejects properties its schema does not know (additionalProperties: false).
export function allowKeys(ctx: Ctx, obj: Obj, keys: readonly string[], ptr: string): void {
  for (const k of Object.keys(obj)) {
    if (!keys.includes(k)) fail(ctx, `unsupported property '${k}'`, `${ptr}/${k}`);
  }
}

interface StrRule {
  required?: boolean;
  min?: number;
  max?: number;
  pattern?: RegExp;
}

export function checkString(ctx: Ctx, obj: Obj, key: string, ptr: string, rule: StrRule = {}): void {
  const v = obj[key];
  const at = `${ptr}/${key}`;
  if (v === undefined) {
    if (rule.required) fail(ctx, `missing required field: ${key}`, ptr);
    return;
  }
  if (typeof v !== 'string') return fail(ctx, 'must be a string', at);
  const min = rule.min ?? 0;
  if (v.length < min) return fail(ctx, `must be more than ${min - 1} characters`, at);
  if (rule.max !== undefined && v.length > rule.max)
    return fail(ctx, `must be less than ${rule.max + 1} characters`, at);
  if (rule.pattern && !rule.pattern.test(v)) fail(ctx, 'does not match the required format', at);
}

export function checkBoolean(ctx: Ctx, obj: Obj, key: string, ptr: string): void {
  if (obj[key] !== undefined && typeof obj[key] !== 'boolean') fail(ctx, 'must be a boolean', `${ptr}/${key}`);
}

interface TextRule {
  plainOnly?: boolean;
  max: number;
  required?: boolean;
}

export function checkText(ctx: Ctx, obj: Obj, key: string, ptr: string, rule: TextRule): void {
  const v = obj[key];
  const at = `${ptr}/${key}`;
  if (v === undefined) {
    if (rule.required) fail(ctx, `missing required field: ${key}`, ptr);
    return;
  }
  checkTextObject(ctx, v, at, rule);
}

export function checkTextObject(ctx: Ctx, v: unknown, at: string, rule: TextRule): void {
  if (!isObj(v)) return fail(ctx, 'must provide an object', at);
  if (v.type === 'plain_text') allowKeys(ctx, v, ['type', 'text', 'emoji'], at);
  else if (v.type === 'mrkdwn' && !rule.plainOnly) allowKeys(ctx, v, ['type', 'text', 'verbatim'], at);
  else return fail(ctx, rule.plainOnly ? 'must be a plain_text text object' : 'must be a text object', `${at}/type`);
  checkString(ctx, v, 'text', at, { required: true, min: 1, max: rule.max });
}

const ACTION_ID = { max: 255, min: 1 } as const;
const CONFIRM_KEYS = ['title', 'text', 'confirm', 'deny', 'style'];

function checkConfirm(ctx: Ctx, el: Obj, ptr: string): void {
  const c = el.confirm;
  if (c === undefined) return;
  const at = `${ptr}/confirm`;
  if (!isObj(c)) return fail(ctx, 'must provide an object', at);
  allowKeys(ctx, c, CONFIRM_KEYS, at);
  checkText(ctx, c, 'title', at, { plainOnly: true, max: 100 });
  checkText(ctx, c, 'text', at, { max: 300, required: true });
  checkText(ctx, c, 'confirm', at, { plainOnly: true, max: 30 });
  checkText(ctx, c, 'deny', at, { plainOnly: true, max: 30 });
}

function checkOption(ctx: Ctx, o: unknown, at: string): void {
  if (!isObj(o)) return fail(ctx, 'must provide an object', at);
  allowKeys(ctx, o, ['text', 'value', 'description'], at);
  checkText(ctx, o, 'text', at, { plainOnly: true, max: 75, required: true });
  checkString(ctx, o, 'value', at, { required: true, min: 1, max: 150 });
  checkText(ctx, o, 'description', at, { plainOnly: true, max: 75 });
}

/** All option values a static_select offers, flattened across option_groups. */
export function selectOptions(el: Obj): Obj[] {
  const direct = Array.isArray(el.options) ? el.options : [];
  const grouped = Array.isArray(el.option_groups)
    ? el.option_groups.flatMap((g) => (isObj(g) && Array.isArray(g.options) ? g.options : []))
    : [];
  return [...direct, ...grouped].filter(isObj);
}

function checkStaticSelect(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(
    ctx,
    el,
    ['type', 'action_id', 'placeholder', 'options', 'option_groups', 'initial_option', 'confirm', 'focus_on_load'],
    ptr,
  );
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  checkBoolean(ctx, el, 'focus_on_load', ptr);
  checkConfirm(ctx, el, ptr);
  const hasOptions = el.options !== undefined;
  const hasGroups = el.option_groups !== undefined;
  if (hasOptions === hasGroups) return fail(ctx, 'must provide exactly one of options or option_groups', ptr);
  if (hasOptions) {
    if (!Array.isArray(el.options)) return fail(ctx, 'must be an array', `${ptr}/options`);
    if (el.options.length < 1) fail(ctx, 'must be more than 0 items', `${ptr}/options`);
    if (el.options.length > 100) fail(ctx, 'must be less than 101 items', `${ptr}/options`);
    el.options.forEach((o, i) => checkOption(ctx, o, `${ptr}/options/${i}`));
  } else {
    if (!Array.isArray(el.option_groups)) return fail(ctx, 'must be an array', `${ptr}/option_groups`);
    if (el.option_groups.length > 100) fail(ctx, 'must be less than 101 items', `${ptr}/option_groups`);
    el.option_groups.forEach((g, gi) => {
      const at = `${ptr}/option_groups/${gi}`;
      if (!isObj(g)) return fail(ctx, 'must provide an object', at);
      allowKeys(ctx, g, ['label', 'options'], at);
      checkText(ctx, g, 'label', at, { plainOnly: true, max: 75, required: true });
      if (!Array.isArray(g.options) || g.options.length > 100)
        return fail(ctx, 'must be an array of at most 100 items', `${at}/options`);
      g.options.forEach((o, i) => checkOption(ctx, o, `${at}/options/${i}`));
    });
  }
  if (el.initial_option !== undefined) {
    checkOption(ctx, el.initial_option, `${ptr}/initial_option`);
    const initial = isObj(el.initial_option) ? el.initial_option.value : undefined;
    if (!selectOptions(el).some((o) => o.value === initial)) {
      fail(ctx, 'initial_option must match one of the options', `${ptr}/initial_option`);
    }
  }
}

function checkButton(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'text', 'action_id', 'url', 'value', 'style', 'confirm', 'accessibility_label'], ptr);
  checkText(ctx, el, 'text', ptr, { plainOnly: true, max: 75, required: true });
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'url', ptr, { max: 3000 });
  checkString(ctx, el, 'value', ptr, { max: 2000 });
  checkString(ctx, el, 'accessibility_label', ptr, { max: 75 });
  if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') {
    fail(ctx, "must be one of 'primary', 'danger'", `${ptr}/style`);
  }
  checkConfirm(ctx, el, ptr);
}

const DISPATCHABLE = ['dispatch_action_config', 'focus_on_load', 'placeholder'];

function checkPlainTextInput(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(
    ctx,
    el,
    ['type', 'action_id', 'initial_value', 'multiline', 'min_length', 'max_length', ...DISPATCHABLE],
    ptr,
  );
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'initial_value', ptr);
  checkBoolean(ctx, el, 'multiline', ptr);
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  for (const [key, lo] of [
    ['min_length', 0],
    ['max_length', 1],
  ] as const) {
    const v = el[key];
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < lo || (v as number) > 3000)) {
      fail(ctx, `must be an integer between ${lo} and 3000`, `${ptr}/${key}`);
    }
  }
  if (typeof el.min_length === 'number' && typeof el.max_length === 'number' && el.min_length > el.max_length) {
    fail(ctx, 'min_length must not exceed max_length', `${ptr}/min_length`);
  }
}

const NUMBER = /^-?\d+(\.\d+)?$/;

function checkNumberInput(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(
    ctx,
    el,
    ['type', 'action_id', 'is_decimal_allowed', 'initial_value', 'min_value', 'max_value', ...DISPATCHABLE],
    ptr,
  );
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  if (typeof el.is_decimal_allowed !== 'boolean') fail(ctx, 'missing required field: is_decimal_allowed', ptr);
  for (const key of ['initial_value', 'min_value', 'max_value']) checkString(ctx, el, key, ptr, { pattern: NUMBER });
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  if (
    typeof el.min_value === 'string' &&
    typeof el.max_value === 'string' &&
    Number(el.min_value) > Number(el.max_value)
  ) {
    fail(ctx, 'min_value cannot be greater than max_value', `${ptr}/min_value`);
  }
}

function checkEmailInput(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'action_id', 'initial_value', ...DISPATCHABLE], ptr);
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'initial_value', ptr);
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
}

function checkDatepicker(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'action_id', 'initial_date', 'confirm', 'focus_on_load', 'placeholder'], ptr);
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'initial_date', ptr, { pattern: /^\d{4}-\d{2}-\d{2}$/ });
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  checkConfirm(ctx, el, ptr);
}

function checkTimepicker(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'action_id', 'initial_time', 'confirm', 'focus_on_load', 'placeholder', 'timezone'], ptr);
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'initial_time', ptr, { pattern: /^([01]\d|2[0-3]):[0-5]\d$/ });
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  checkConfirm(ctx, el, ptr);
}

function checkUsersSelect(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'action_id', 'initial_user', 'confirm', 'focus_on_load', 'placeholder'], ptr);
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkString(ctx, el, 'initial_user', ptr, { min: 1 });
  checkBoolean(ctx, el, 'focus_on_load', ptr);
  checkText(ctx, el, 'placeholder', ptr, { plainOnly: true, max: 150 });
  checkConfirm(ctx, el, ptr);
}

// Unlike a select's, a checkbox option may be mrkdwn (text and description).
function checkCheckboxOption(ctx: Ctx, o: unknown, at: string): void {
  if (!isObj(o)) return fail(ctx, 'must provide an object', at);
  allowKeys(ctx, o, ['text', 'value', 'description'], at);
  checkText(ctx, o, 'text', at, { max: 75, required: true });
  checkString(ctx, o, 'value', at, { required: true, min: 1, max: 150 });
  checkText(ctx, o, 'description', at, { max: 75 });
}

function checkCheckboxes(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'action_id', 'options', 'initial_options', 'confirm', 'focus_on_load'], ptr);
  checkString(ctx, el, 'action_id', ptr, ACTION_ID);
  checkBoolean(ctx, el, 'focus_on_load', ptr);
  checkConfirm(ctx, el, ptr);
  if (!Array.isArray(el.options)) return fail(ctx, 'missing required field: options', ptr);
  if (el.options.length < 1) fail(ctx, 'must be more than 0 items', `${ptr}/options`);
  if (el.options.length > 10) fail(ctx, 'must be less than 11 items', `${ptr}/options`);
  el.options.forEach((o, i) => checkCheckboxOption(ctx, o, `${ptr}/options/${i}`));
  if (el.initial_options === undefined) return;
  if (!Array.isArray(el.initial_options)) return fail(ctx, 'must be an array', `${ptr}/initial_options`);
  el.initial_options.forEach((o, i) => checkCheckboxOption(ctx, o, `${ptr}/initial_options/${i}`));
  const values = new Set(el.options.filter(isObj).map((o) => o.value));
  if (!el.initial_options.every((o) => isObj(o) && values.has(o.value))) {
    fail(ctx, 'initial_options must match the options', `${ptr}/initial_options`);
  }
}

function checkImage(ctx: Ctx, el: Obj, ptr: string): void {
  allowKeys(ctx, el, ['type', 'image_url', 'alt_text'], ptr);
  checkString(ctx, el, 'image_url', ptr, { required: true, min: 1, max: 3000 });
  checkString(ctx, el, 'alt_text', ptr, { required: true, min: 1, max: 2000 });
}

const CHECKERS: Record<string, (ctx: Ctx, el: Obj, ptr: string) => void> = {
  button: checkButton,
  static_select: checkStaticSelect,
  datepicker: checkDatepicker,
  timepicker: checkTimepicker,
  users_select: checkUsersSelect,
  checkboxes: checkCheckboxes,
  plain_text_input: checkPlainTextInput,
  number_input: checkNumberInput,
  email_text_input: checkEmailInput,
  image: checkImage,
};

/** Validates one element against the element types allowed at this spot. */
export function checkElement(ctx: Ctx, el: unknown, ptr: string, allowed: readonly string[]): void {
  if (!isObj(el)) return fail(ctx, 'must provide an object', ptr);
  const type = typeof el.type === 'string' ? el.type : '';
  if (!allowed.includes(type)) {
    const known = Object.keys(CHECKERS).includes(type);
    return fail(
      ctx,
      known
        ? `element type '${type}' is not allowed here`
        : `unsupported element type '${type}' (not supported by local-slack)`,
      `${ptr}/type`,
    );
  }
  CHECKERS[type]?.(ctx, el, ptr);
}
