import { describe, expect, it } from 'vitest';
import { metricsRegistry } from '../core/metrics.js';
import { RunAdmission } from './run-admission.js';

const seriesValue = async (name: string, labels: Record<string, string> = {}) => {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === name);
  const v = (metric?.values ?? []).find((s) =>
    Object.entries(labels).every(([k, want]) => String((s.labels as Record<string, unknown>)[k]) === want),
  );
  return v?.value ?? 0;
};

describe('run admission metrics', () => {
  it('shows the queue depth while runs wait, and counts a refusal as an overloaded run', async () => {
    const admission = new RunAdmission(1, 1);
    const overloaded = await seriesValue('support_agent_graph_runs_total', { outcome: 'overloaded' });
    let release!: () => void;
    const first = admission.run(
      () => new Promise<void>((r) => (release = r)),
      () => new Error('full'),
    );
    const second = admission.run(
      async () => undefined,
      () => new Error('full'),
    );
    expect(await seriesValue('support_agent_admission_queue_depth')).toBe(1);
    await expect(
      admission.run(
        async () => undefined,
        () => new Error('full'),
      ),
    ).rejects.toThrow('full');
    expect(await seriesValue('support_agent_graph_runs_total', { outcome: 'overloaded' })).toBe(overloaded + 1);
    release();
    await Promise.all([first, second]);
    expect(await seriesValue('support_agent_admission_queue_depth')).toBe(0);
  });
});
