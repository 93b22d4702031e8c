/**
 * The load generator both flows get: the same HTTP calls (POST /chat, then POST
 * /approvals/:id/approve), the same client, the same pacing. A conversation is one customer write
 * message that ends at a pending approval, then the manager's approval that ends executed.
 */
import { DEMO_CUSTOMERS } from '../../schema/demo.js';

export interface Target {
  /** Base urls; conversations go round-robin, as behind a load balancer. */
  urls: string[];
  managerKey?: string;
}

export interface Conversation {
  cardMs: number;
  executeMs: number;
}

const CUSTOMERS = DEMO_CUSTOMERS.map((c) => c.id);
let serial = 0;

/** A fresh phone number each time: no write is a no-op the product could skip. */
const nextPhone = () => {
  const n = serial++;
  return `555-${String(300 + Math.floor(n / 9000)).padStart(3, '0')}-${1000 + (n % 9000)}`;
};

/** A call the product never answers is a result (a hang), not a reason for the bench to wait forever. */
export const CALL_TIMEOUT_MS = 30_000;

async function post(url: string, body: unknown, key?: string): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`bench: ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export const writeMessage = () => `Please change my phone number to ${nextPhone()}`;

/** One message → pending approval → approve → executed. */
export async function conversation(t: Target, i: number, opts: { between?: () => Promise<void> } = {}) {
  const base = t.urls[i % t.urls.length]!;
  const customer = CUSTOMERS[i % CUSTOMERS.length]!;
  const t0 = performance.now();
  const chat = await post(`${base}/chat`, { customer, message: writeMessage() });
  const cardMs = performance.now() - t0;
  const id = chat.approvals?.[0]?.id as string | undefined;
  if (!id) throw new Error(`bench: no approval proposed: ${JSON.stringify(chat).slice(0, 300)}`);
  await opts.between?.();
  const t1 = performance.now();
  const decided = await post(`${base}/approvals/${encodeURIComponent(id)}/approve`, {}, t.managerKey);
  const executeMs = performance.now() - t1;
  if (decided.approval?.status !== 'executed') {
    throw new Error(`bench: approval not executed: ${JSON.stringify(decided).slice(0, 300)}`);
  }
  return { cardMs, executeMs };
}

/**
 * `total` conversations with `inFlight` running at any moment: completed conversations per
 * second, how many failed or hung (each counted, the rest go on), and the latencies of the rest.
 */
export async function throughput(
  t: Target,
  inFlight: number,
  total: number,
  offset = 0,
): Promise<{ perSecond: number; failed: number; errors: string[]; completed: Conversation[] }> {
  let next = 0;
  let failed = 0;
  const errors = new Set<string>();
  const completed: Conversation[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < total; i = next++) {
        await conversation(t, offset + i).then(
          (c) => void completed.push(c),
          (err: Error) => {
            failed++;
            // Ids differ per failure; what is left says which kind it was.
            errors.add(err.message.replace(/[0-9a-f-]{36}|api:[\w-]+/g, '…').slice(0, 200));
          },
        );
      }
    }),
  );
  return { perSecond: (total - failed) / ((performance.now() - t0) / 1000), failed, errors: [...errors], completed };
}

/** A question in an existing thread (or a new one): for the checkpoint-size thread. */
export async function say(t: Target, customer: string, message: string, threadId?: string): Promise<string> {
  const out = await post(`${t.urls[0]}/chat`, { customer, message, ...(threadId ? { thread_id: threadId } : {}) });
  return out.thread_id as string;
}

export async function approve(t: Target, id: string): Promise<void> {
  await post(`${t.urls[0]}/approvals/${encodeURIComponent(id)}/approve`, {}, t.managerKey);
}
