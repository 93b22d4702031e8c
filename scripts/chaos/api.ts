/** The product's HTTP API as a client sees it: every answer, including "no answer" (status 0). */
export interface Reply {
  status: number;
  body: any;
  headers: Headers | undefined;
  error?: string;
}

export async function request(
  url: string,
  opts: {
    method?: string;
    token?: string;
    json?: unknown;
    body?: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  try {
    const r = await fetch(url, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
    });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, body: parsed, headers: r.headers };
  } catch (err) {
    return {
      status: 0,
      body: undefined,
      headers: undefined,
      error: (err as Error).cause ? String((err as { cause: unknown }).cause) : String(err),
    };
  }
}

/** Messages the offline planner turns into a create_ticket proposal for the given customer. */
const TICKET_MESSAGES = [
  'I was charged twice for my last cleaning',
  'the cleaner yesterday was really rude to my husband, I want to make a complaint',
  'there is a water stain on the ceiling since your plumber came, please open a ticket',
];

export interface Keys {
  apiKey: string;
  managerKey: string;
}

export interface Proposal {
  approvalId: string;
  threadId: string;
  tool: string;
  customer: string;
}

/** POST /chat a write request; resolves with the approval it created, or the reply that explains why not. */
export async function propose(baseUrl: string, keys: Keys, n: number): Promise<{ proposal?: Proposal; reply: Reply }> {
  const customer = `cus_${String((n % 30) + 1).padStart(3, '0')}`;
  const message = TICKET_MESSAGES[n % TICKET_MESSAGES.length]!;
  const reply = await request(`${baseUrl}/chat`, { token: keys.apiKey, json: { customer, message } });
  const a = reply.status === 200 ? reply.body?.approvals?.[0] : undefined;
  if (!a?.id) return { reply };
  return { reply, proposal: { approvalId: a.id, threadId: reply.body.thread_id, tool: a.tool, customer } };
}

export function approve(baseUrl: string, keys: Keys, approvalId: string, timeoutMs = 60_000): Promise<Reply> {
  return request(`${baseUrl}/approvals/${approvalId}/approve`, {
    token: keys.managerKey,
    json: { approver: 'chaos-manager' },
    timeoutMs,
  });
}
