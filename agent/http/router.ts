import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface RouteContext {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
  body: () => Promise<unknown>;
}

type Handler = (ctx: RouteContext) => Promise<{ status?: number; body: unknown }>;

const MAX_BODY_BYTES = 64 * 1024;

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', `Request bodies can be at most ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  if (!size) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** A deliberately small router: method + path pattern (`:param`) → handler returning JSON. */
export class Router {
  private routes: { method: string; pattern: RegExp; keys: string[]; handler: Handler }[] = [];

  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const pattern = new RegExp(
      '^' + path.replace(/:([a-z_]+)/gi, (_, k: string) => (keys.push(k), '([^/]+)')) + '/?$',
    );
    this.routes.push({ method, pattern, keys, handler });
    return this;
  }

  /** Returns false when no route matches, so the caller can hand the request to someone else. */
  async handle(req: IncomingMessage, res: ServerResponse, onError: (err: unknown) => void): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const matches = this.routes.filter((r) => r.pattern.test(url.pathname));
    if (!matches.length) return false;
    const route = matches.find((r) => r.method === req.method);
    try {
      if (!route) throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here.`);
      const m = route.pattern.exec(url.pathname)!;
      const params = Object.fromEntries(route.keys.map((k, i) => [k, decodeURIComponent(m[i + 1]!)]));
      const out = await route.handler({ req, params, query: url.searchParams, body: () => readJson(req) });
      send(res, out.status ?? 200, out.body);
    } catch (err) {
      if (err instanceof HttpError) {
        send(res, err.status, { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } });
      } else {
        onError(err);
        send(res, 500, { error: { code: 'internal', message: 'Something went wrong on our side; nothing was changed.' } });
      }
    }
    return true;
  }
}

export function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
