import type { IncomingMessage, ServerResponse } from 'node:http';
import { isConnectionError } from '../../core/pg-pool.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface RouteContext {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body; refuses any other content type (415), bad JSON (400) and large bodies (413). */
  body: () => Promise<unknown>;
}

type Handler = (ctx: RouteContext) => Promise<{ status?: number; body: unknown }>;

const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () =>
  new HttpError(413, 'payload_too_large', `Request bodies can be at most ${MAX_BODY_BYTES} bytes.`, undefined, {
    connection: 'close',
  });

/**
 * The request body as JSON. Only `application/json` is read: a browser can send text/plain or a
 * form to any origin without a preflight, JSON it cannot.
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON with content-type: application/json.');
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      // Stop collecting but let Node drain the rest, so the client reads the 413 rather than a reset.
      req.off('data', onData);
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

const invalidPath = () =>
  new HttpError(400, 'invalid_path', 'The path is not valid (a malformed %-escape or a control character).');

function decodeParam(raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw invalidPath();
  }
  // No identifier of ours holds control characters, and Postgres cannot even compare a NUL.
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalidPath();
  return value;
}

/** A deliberately small router: method + path pattern (`:param`) → handler returning JSON. */
export class Router {
  private routes: { method: string; pattern: RegExp; keys: string[]; handler: Handler }[] = [];

  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const pattern = new RegExp('^' + path.replace(/:([a-z_]+)/gi, (_, k: string) => (keys.push(k), '([^/]+)')) + '/?$');
    this.routes.push({ method, pattern, keys, handler });
    return this;
  }

  /** Returns false when no route matches, so the caller can hand the request to someone else. */
  async handle(req: IncomingMessage, res: ServerResponse, onError: (err: unknown) => void): Promise<boolean> {
    // Prefixed, so that a request target like `//host/path` stays a path rather than becoming a host.
    let url: URL;
    try {
      url = new URL(`http://localhost${(req.url ?? '/').startsWith('/') ? '' : '/'}${req.url ?? ''}`);
    } catch {
      return false;
    }
    const matches = this.routes.filter((r) => r.pattern.test(url.pathname));
    if (!matches.length) return false;
    const route = matches.find((r) => r.method === req.method);
    try {
      if (!route) throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here.`);
      const m = route.pattern.exec(url.pathname)!;
      const params = Object.fromEntries(route.keys.map((k, i) => [k, decodeParam(m[i + 1]!)]));
      const out = await route.handler({ req, params, query: url.searchParams, body: () => readJson(req) });
      send(res, out.status ?? 200, out.body);
    } catch (err) {
      if (err instanceof HttpError) {
        send(
          res,
          err.status,
          { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } },
          err.headers,
        );
      } else if (isConnectionError(err)) {
        // Postgres is restarting or unreachable: a state to wait out, not a bug. Workers recover by
        // themselves; the client should retry (a decision that was recorded answers 409 then).
        send(
          res,
          503,
          {
            error: {
              code: 'database_unavailable',
              message: 'The database is unreachable right now; try again in a few seconds.',
            },
          },
          { 'retry-after': '5' },
        );
      } else {
        onError(err);
        send(res, 500, {
          error: { code: 'internal', message: 'Something went wrong on our side; nothing was changed.' },
        });
      }
    }
    return true;
  }
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
