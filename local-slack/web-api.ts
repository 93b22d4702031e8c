// Web API front door: body parsing (form or JSON, like Slack), bearer-token auth, dispatch, call log.
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { slackError, type SlackError } from './block-kit.js';
import type { ApiArgs, ApiContext, ApiResult, Method } from './web-api-args.js';
import { chatMethods } from './web-api-chat.js';
import { miscMethods } from './web-api-misc.js';
import { viewMethods } from './web-api-views.js';

export type { ApiArgs, ApiContext, ApiResult } from './web-api-args.js';

const METHODS: Record<string, Method> = { ...chatMethods, ...viewMethods, ...miscMethods };

// Over form encoding, Slack expects structured arguments as JSON strings; each has its own parse error.
const JSON_FIELDS: Record<string, string> = {
  blocks: 'invalid_blocks_format',
  attachments: 'invalid_attachments',
  view: 'invalid_arguments',
  metadata: 'invalid_metadata_format',
};

type Parsed = { args: ApiArgs; json: boolean } | { error: SlackError };

function parseBody(headers: IncomingHttpHeaders, raw: string, query: string): Parsed {
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const fromQuery = flatten(parseQuery(query));
  if (!raw) return { args: fromQuery, json: false };
  if (type === 'application/json') {
    try {
      const body: unknown = JSON.parse(raw);
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return { error: slackError('invalid_json') };
      return { args: { ...fromQuery, ...(body as ApiArgs) }, json: true };
    } catch {
      return { error: slackError('invalid_json') };
    }
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    return { args: { ...fromQuery, ...flatten(parseQuery(raw)) }, json: false };
  }
  return { error: slackError('invalid_form_data') };
}

function flatten(q: Record<string, string | string[] | undefined>): ApiArgs {
  const out: ApiArgs = {};
  for (const [k, v] of Object.entries(q)) out[k] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}

function decodeJsonFields(args: ApiArgs): SlackError | undefined {
  for (const [field, error] of Object.entries(JSON_FIELDS)) {
    const v = args[field];
    if (typeof v !== 'string') continue;
    try {
      args[field] = JSON.parse(v);
    } catch {
      return slackError(error);
    }
  }
  return undefined;
}

function authenticate(
  headers: IncomingHttpHeaders,
  args: ApiArgs,
  json: boolean,
  botToken: string,
): SlackError | undefined {
  const bearer = headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  // A JSON body cannot carry the token; Slack only reads it from the Authorization header then.
  const token = bearer ?? (json ? undefined : (args.token as string | undefined));
  if (!token) return slackError('not_authed');
  if (token !== botToken) return slackError('invalid_auth');
  return undefined;
}

/** A Web API answer: the JSON body, and for a rate-limited call the Retry-After seconds (sent with HTTP 429). */
export interface ApiAnswer {
  result: ApiResult;
  retryAfter?: number;
}

export function handleApiRequest(
  method: string,
  headers: IncomingHttpHeaders,
  raw: string,
  query: string,
  ctx: ApiContext,
): ApiAnswer {
  const parsed = parseBody(headers, raw, query);
  const args = 'args' in parsed ? parsed.args : {};
  let retryAfter: number | undefined;
  const result = ((): ApiResult => {
    if ('error' in parsed) return parsed.error;
    const impl = METHODS[method];
    if (!impl) return slackError('unknown_method');
    const authError = authenticate(headers, args, parsed.json, ctx.ws.id.botToken);
    if (authError) return authError;
    // Counted per channel as Slack knows it, whether the app named it by id or by name.
    const channel = typeof args.channel === 'string' ? ctx.ws.resolveChannel(args.channel)?.id : undefined;
    retryAfter = ctx.limiter?.take(method, { channel: channel ?? args.channel });
    if (retryAfter !== undefined) return slackError('ratelimited');
    return decodeJsonFields(args) ?? impl(args, ctx);
  })();
  const { token: _token, ...logged } = args;
  ctx.ws.calls.push({ method, args: logged, ok: result.ok, ...(result.ok ? {} : { error: result.error }) });
  if (retryAfter !== undefined) ctx.logger.info(`local-slack: ${method} -> ratelimited (Retry-After ${retryAfter})`);
  else if (!result.ok)
    ctx.logger.warn(`local-slack: ${method} -> ${result.error}`, 'errors' in result ? result.errors : '');
  return retryAfter === undefined ? { result } : { result, retryAfter };
}
