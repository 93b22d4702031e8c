import { describe, expect, it } from 'vitest';
import {
  countSlackEvent,
  measureGraphRun,
  measureToolCall,
  metricsRegistry,
  outcomeOfError,
  countHttpRequest,
} from './metrics.js';

/** The current value of one series, read back from the registry as a scraper would see it. */
async function seriesValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === name);
  const match = (metric?.values ?? []).find((v) =>
    Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
  );
  return match?.value ?? 0;
}

describe('core/metrics', () => {
  it('exposes the default process metrics in the one registry', async () => {
    const text = await metricsRegistry.metrics();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts a graph run by outcome: ok, or the stable code of what it threw', async () => {
    const ok = await seriesValue('support_agent_graph_runs_total', { outcome: 'ok' });
    const busy = await seriesValue('support_agent_graph_runs_total', { outcome: 'thread_busy' });
    expect(await measureGraphRun(async () => 42)).toBe(42);
    const err = Object.assign(new Error('busy'), { code: 'thread_busy' });
    await expect(measureGraphRun(() => Promise.reject(err))).rejects.toBe(err);
    expect(await seriesValue('support_agent_graph_runs_total', { outcome: 'ok' })).toBe(ok + 1);
    expect(await seriesValue('support_agent_graph_runs_total', { outcome: 'thread_busy' })).toBe(busy + 1);
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/support_agent_graph_run_duration_seconds_count\{outcome="ok"\} \d+/);
  });

  it('keeps outcome labels bounded: codes that are not ours become "error"', () => {
    expect(outcomeOfError(Object.assign(new Error(), { code: 'tool_server_unavailable' }))).toBe(
      'tool_server_unavailable',
    );
    expect(outcomeOfError(Object.assign(new Error(), { code: 'ECONNREFUSED' }))).toBe('error');
    expect(outcomeOfError(Object.assign(new Error(), { code: '57P01' }))).toBe('error');
    expect(outcomeOfError(new Error('plain'))).toBe('error');
    expect(outcomeOfError('x'.repeat(100))).toBe('error');
  });

  it('counts tool calls by tool and outcome, refusals by their code', async () => {
    const before = await seriesValue('support_agent_tool_calls_total', { tool: 'book_slot', outcome: 'slot_taken' });
    await measureToolCall('book_slot', async () => ({ ok: false, error: { code: 'slot_taken' } }));
    await measureToolCall('book_slot', async () => ({ ok: true, replay: true }));
    expect(await seriesValue('support_agent_tool_calls_total', { tool: 'book_slot', outcome: 'slot_taken' })).toBe(
      before + 1,
    );
    expect(
      await seriesValue('support_agent_tool_calls_total', { tool: 'book_slot', outcome: 'replay' }),
    ).toBeGreaterThan(0);
  });

  it('labels Slack events by their type and inner event type, nothing free-form', async () => {
    const before = await seriesValue('support_agent_slack_events_received_total', {
      type: 'event_callback',
      event: 'message',
    });
    countSlackEvent({ type: 'event_callback', event: { type: 'message', text: 'hi' } });
    countSlackEvent({ type: 'block_actions' });
    countSlackEvent({ type: 'Some Thing!', event: { type: 42 } });
    expect(
      await seriesValue('support_agent_slack_events_received_total', { type: 'event_callback', event: 'message' }),
    ).toBe(before + 1);
    expect(await seriesValue('support_agent_slack_events_received_total', { type: 'other', event: 'other' })).toBe(1);
  });

  it('counts HTTP requests by route template and status when the answer is sent', async () => {
    const before = await seriesValue('support_agent_http_requests_total', { route: '/things/:id', status: '404' });
    let finish: (() => void) | undefined;
    const res = { statusCode: 404, once: (_: string, f: () => void) => void (finish = f) };
    countHttpRequest({ method: 'GET' }, res, () => '/things/:id');
    expect(await seriesValue('support_agent_http_requests_total', { route: '/things/:id', status: '404' })).toBe(
      before,
    );
    finish!();
    expect(await seriesValue('support_agent_http_requests_total', { route: '/things/:id', status: '404' })).toBe(
      before + 1,
    );
  });
});
