/**
 * The process's Prometheus metrics: one registry, the default process metrics, and the product's
 * own series. Defined here, once, and incremented where the events happen (the agent service, the
 * tool client, run admission, the Slack receiver, the HTTP server); `/metrics` serves the registry.
 *
 * Every label is bounded: routes are templates, outcomes are our own stable snake_case codes (any
 * other error is `error`), tool names are the caller's to bound. An unbounded label (a thread id,
 * a raw path, an error message) would make a series per value and grow the scrape without end.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];

export const httpRequests = new Counter({
  name: 'support_agent_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers,
});

export const graphRuns = new Counter({
  name: 'support_agent_graph_runs_total',
  help: 'Graph runs (a message, a decision, queued follow-ups) by outcome: ok, overloaded, or the error code.',
  labelNames: ['outcome'] as const,
  registers,
});

export const graphRunSeconds = new Histogram({
  name: 'support_agent_graph_run_duration_seconds',
  help: 'Time a graph run holds its admission slot (the wait for a slot is not included).',
  labelNames: ['outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

export const toolCalls = new Counter({
  name: 'support_agent_tool_calls_total',
  help: 'Tool server calls by tool and outcome: ok, replay, the refusal code, or tool_server_unavailable.',
  labelNames: ['tool', 'outcome'] as const,
  registers,
});

export const toolCallSeconds = new Histogram({
  name: 'support_agent_tool_call_duration_seconds',
  help: 'Tool server call latency, by tool.',
  labelNames: ['tool'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers,
});

export const admissionQueueDepth = new Gauge({
  name: 'support_agent_admission_queue_depth',
  help: 'Graph runs waiting for a slot on this process (MAX_CONCURRENT_RUNS are running).',
  registers,
});

export const slackEvents = new Counter({
  name: 'support_agent_slack_events_received_total',
  help: 'Slack deliveries received (events, interactions), by payload type and inner event type.',
  labelNames: ['type', 'event'] as const,
  registers,
});

/** Read from Postgres at scrape time (see `/metrics`): the ledger's state, shared by every worker. */
export const approvalsByStatus = new Gauge({
  name: 'support_agent_approvals',
  help: 'Approvals in the ledger by status (the whole database, not this process).',
  labelNames: ['status'] as const,
  registers,
});

const OUR_CODE = /^[a-z][a-z0-9_]{0,39}$/;

/** A thrown error as an outcome label: our stable codes as they are, anything else `error`. */
export function outcomeOfError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && OUR_CODE.test(code) ? code : 'error';
}

const label = (v: unknown): string => (typeof v === 'string' && OUR_CODE.test(v) ? v : 'other');

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** Run one graph run, counting its outcome and duration. */
export async function measureGraphRun<T>(fn: () => Promise<T>): Promise<T> {
  const t0 = process.hrtime.bigint();
  let outcome = 'ok';
  try {
    return await fn();
  } catch (err) {
    outcome = outcomeOfError(err);
    throw err;
  } finally {
    graphRuns.inc({ outcome });
    graphRunSeconds.observe({ outcome }, seconds(t0));
  }
}

/** Run one tool call, counting its outcome (an answered refusal by its code) and latency. */
export async function measureToolCall<T extends { ok: boolean; replay?: boolean; error?: { code: string } }>(
  tool: string,
  fn: () => Promise<T>,
): Promise<T> {
  const t0 = process.hrtime.bigint();
  let outcome = 'error';
  try {
    const out = await fn();
    outcome = out.ok ? (out.replay ? 'replay' : 'ok') : label(out.error?.code);
    return out;
  } catch (err) {
    outcome = outcomeOfError(err);
    throw err;
  } finally {
    toolCalls.inc({ tool, outcome });
    toolCallSeconds.observe({ tool }, seconds(t0));
  }
}

/** One Slack delivery as it arrives (before it is stored): `event_callback`/`message`, `block_actions`/``. */
export function countSlackEvent(body: unknown): void {
  const b = (body ?? {}) as { type?: unknown; event?: { type?: unknown } };
  slackEvents.inc({ type: label(b.type), event: b.event === undefined ? '' : label(b.event?.type) });
}

/** Count a request once its answer is sent; `route` names its template then (never the raw path). */
export function countHttpRequest(
  req: { method?: string },
  res: { statusCode: number; once(event: 'finish', listener: () => void): unknown },
  route: () => string,
): void {
  res.once('finish', () => {
    const method = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(req.method ?? '') ? req.method! : 'other';
    httpRequests.inc({ route: route(), method, status: String(res.statusCode) });
  });
}
