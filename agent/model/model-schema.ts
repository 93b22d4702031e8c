/**
 * What a tool's input schema looks like when it is sent to a model as a function declaration, and
 * the subset of JSON Schema the Gemini API accepts there. The tool schemas in schema/tools are
 * written inside that subset; `geminiSchemaProblems` is how tests (and the fake Gemini endpoint)
 * prove it, so a schema change that Gemini would reject with a 400 fails a test instead.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Keywords the tool server enforces but the model needs not read: every plan call pays for them
 * in tokens, and a call that breaks one is refused with an error naming the rule. A pattern like
 * `^cus_[a-z0-9]{3,24}$` says no more than the description's example; a bound like 4000
 * characters never binds a chat message.
 */
const SERVER_ONLY_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'additionalProperties',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'default',
  'title',
]);

/**
 * The schema to send to a model: the JSON Schema that MCP publishes, minus what function
 * declarations don't take (`$schema`, `additionalProperties`) and what only the server needs
 * (SERVER_ONLY_KEYS). Harmless rewrites for schemas
 * written elsewhere: `type: [X, 'null']` and `anyOf: [X, {type: 'null'}]` become X with
 * `nullable: true`, and a string `const` becomes a one-value `enum`. `omit` drops top-level properties the
 * caller fills itself (and their `required` entries). Returns a copy; the input is not modified.
 */
export function toModelSchema(jsonSchema: Json, opts: { omit?: readonly string[] } = {}): Json {
  const out = clean(jsonSchema) as Json;
  const omit = new Set(opts.omit ?? []);
  if (!omit.size) return out;
  if (isObject(out.properties))
    out.properties = Object.fromEntries(Object.entries(out.properties).filter(([k]) => !omit.has(k)));
  if (Array.isArray(out.required)) {
    const required = out.required.filter((k) => !omit.has(k as string));
    if (required.length) out.required = required;
    else delete out.required;
  }
  return out;
}

function clean(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SERVER_ONLY_KEYS.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
    } else if (key === 'items') {
      out.items = Array.isArray(value) ? value.map(clean) : clean(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(clean);
    } else if (key === 'const' && typeof value === 'string') {
      out.enum = [value];
      out.type ??= 'string';
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = (out.type as unknown[]).filter((t) => t !== 'null');
    if (types.length === 1) {
      out.type = types[0];
      out.nullable = true;
    }
  }
  if (Array.isArray(out.anyOf)) {
    const nonNull = (out.anyOf as unknown[]).filter((s) => !(isObject(s) && s.type === 'null'));
    if (nonNull.length === 1 && nonNull.length < (out.anyOf as unknown[]).length && isObject(nonNull[0])) {
      const { anyOf: _dropped, ...rest } = out;
      return { ...nonNull[0], ...rest, nullable: true };
    }
  }
  return out;
}

/** Keys Gemini accepts in a function declaration's parameter schema (OpenAPI 3.0 subset). */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'properties',
  'required',
  'items',
  'enum',
  'format',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'nullable',
  'title',
  'anyOf',
  'propertyOrdering',
  'default',
]);

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const FORMATS = new Set(['date-time', 'enum']);
export const MAX_PATTERN_LENGTH = 200;

const WHY: Record<string, string> = {
  additionalProperties: 'open maps (additionalProperties) are not supported; list the properties',
  $ref: '$ref is not supported; inline the schema',
  $defs: '$defs is not supported; inline the schema',
  definitions: 'definitions is not supported; inline the schema',
  exclusiveMinimum: 'exclusiveMinimum is not supported; use minimum',
  exclusiveMaximum: 'exclusiveMaximum is not supported; use maximum',
  const: 'const is not supported; use a one-value enum',
  oneOf: 'oneOf is not supported; use anyOf',
  allOf: 'allOf is not supported',
  $schema: '$schema is not accepted in a function declaration (toModelSchema strips it)',
};

/**
 * Everything in `schema` that Gemini would refuse, as `<path>: <problem>` lines (path like
 * `.properties.start_time.pattern`). An empty list means the schema is inside the subset.
 */
export function geminiSchemaProblems(schema: unknown, path = ''): string[] {
  const problems: string[] = [];
  const at = (p: string, msg: string) => problems.push(`${p}: ${msg}`);
  if (!isObject(schema)) {
    at(path, 'a schema must be an object');
    return problems;
  }
  for (const [key, value] of Object.entries(schema)) {
    const p = `${path}.${key}`;
    if (!GEMINI_SCHEMA_KEYS.has(key)) {
      at(p, WHY[key] ?? `key "${key}" is not supported`);
      continue;
    }
    switch (key) {
      case 'type':
        if (typeof value !== 'string') at(p, 'type must be a single type name (use nullable for null)');
        else if (!TYPES.has(value.toLowerCase())) at(p, `unknown type "${value}"`);
        break;
      case 'description':
      case 'title':
        if (typeof value !== 'string') at(p, `${key} must be a string`);
        break;
      case 'enum':
        if (!Array.isArray(value) || value.length === 0) at(p, 'enum must be a non-empty array');
        else if (value.some((v) => typeof v !== 'string')) at(p, 'enum values must be strings');
        else if (typeof schema.type === 'string' && schema.type.toLowerCase() !== 'string')
          at(p, 'enum is only allowed on strings');
        break;
      case 'format':
        if (typeof value !== 'string' || !FORMATS.has(value))
          at(p, `format ${JSON.stringify(value)} is not supported (only date-time or enum)`);
        break;
      case 'pattern':
        if (typeof value !== 'string') at(p, 'pattern must be a string');
        else if (value.length > MAX_PATTERN_LENGTH)
          at(p, `pattern is ${value.length} characters; at most ${MAX_PATTERN_LENGTH}`);
        break;
      case 'minimum':
      case 'maximum':
        if (typeof value !== 'number' || !Number.isFinite(value)) at(p, `${key} must be a finite number`);
        break;
      case 'minItems':
      case 'maxItems':
      case 'minLength':
      case 'maxLength':
        if (!Number.isInteger(value) || (value as number) < 0) at(p, `${key} must be a non-negative integer`);
        break;
      case 'nullable':
        if (typeof value !== 'boolean') at(p, 'nullable must be a boolean');
        break;
      case 'properties':
        if (!isObject(value)) at(p, 'properties must be an object');
        else
          for (const [name, sub] of Object.entries(value)) problems.push(...geminiSchemaProblems(sub, `${p}.${name}`));
        break;
      case 'required': {
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
          at(p, 'required must be an array of property names');
          break;
        }
        const props = isObject(schema.properties) ? schema.properties : {};
        for (const name of value as string[])
          if (!(name in props)) at(p, `required property "${name}" is not in properties`);
        break;
      }
      case 'propertyOrdering':
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
          at(p, 'propertyOrdering must be an array of property names');
        break;
      case 'items':
        if (Array.isArray(value)) at(p, 'tuple items are not supported; give one schema');
        else problems.push(...geminiSchemaProblems(value, p));
        break;
      case 'anyOf':
        if (!Array.isArray(value) || value.length === 0) at(p, 'anyOf must be a non-empty array');
        else value.forEach((sub, i) => problems.push(...geminiSchemaProblems(sub, `${p}[${i}]`)));
        break;
      default:
        break; // default: any value
    }
  }
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : undefined;
  if (type === 'object' && (!isObject(schema.properties) || Object.keys(schema.properties).length === 0)) {
    at(`${path}.properties`, 'an object needs at least one property (open maps are not supported)');
  }
  if (type === 'array' && schema.items === undefined) at(`${path}.items`, 'an array needs items');
  return problems;
}
