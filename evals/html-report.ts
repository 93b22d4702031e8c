import type { EvalCase } from './case-schema.js';
import type { GateResult } from './gate.js';
import { METRIC_NAMES, type MetricName } from './metrics.js';
import type { EvalReport } from './run.js';
import type { RepeatSummary } from './repeat.js';
import { promptTokensCell } from './report.js';

/**
 * A self-contained HTML report (no scripts, no external files): a chart per metric with each set's
 * value, its 95% interval and its gate, and a table of failing cases with what each turn expected
 * next to what the model proposed.
 */

export interface HtmlSet {
  report: EvalReport;
  cases: readonly EvalCase[];
  gate?: GateResult[];
  repeat?: RepeatSummary;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const COLORS = ['#3b6ea5', '#c07a2c', '#5a9a5a', '#8a5aa5'];

/** One metric: a horizontal bar per set, the CI as a whisker, the gate as a tick. */
export function metricChart(name: MetricName, sets: Record<string, HtmlSet>): string {
  const entries = Object.entries(sets);
  const W = 360;
  const rowH = 26;
  const left = 70;
  const H = entries.length * rowH + 24;
  const x = (v: number) => left + v * (W - left - 10);
  const first = entries[0]![1].report.metrics[name];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${esc(first.label)}">`,
    ...[0, 0.5, 1].map(
      (t) =>
        `<line x1="${x(t)}" y1="4" x2="${x(t)}" y2="${H - 16}" stroke="#ddd"/>` +
        `<text x="${x(t)}" y="${H - 4}" font-size="10" text-anchor="middle" fill="#666">${t * 100}%</text>`,
    ),
  ];
  entries.forEach(([set, s], i) => {
    const m = s.report.metrics[name];
    const y = 6 + i * rowH;
    parts.push(`<text x="0" y="${y + 13}" font-size="11" fill="#333">${esc(set)}</text>`);
    if (m.value !== null) {
      parts.push(
        `<rect x="${left}" y="${y}" width="${x(m.value) - left}" height="16" fill="${COLORS[i % COLORS.length]}"/>`,
        `<line x1="${x(m.ci[0])}" y1="${y + 8}" x2="${x(m.ci[1])}" y2="${y + 8}" stroke="#111" stroke-width="1.5"/>`,
        `<text x="${Math.min(x(m.value) + 4, W - 40)}" y="${y + 12}" font-size="10" fill="#111">${pct(m.value)}</text>`,
      );
    } else parts.push(`<text x="${left + 4}" y="${y + 12}" font-size="10" fill="#999">not measured</text>`);
    const g = s.gate?.find((gg) => gg.metric === name);
    if (g) {
      const b = 'min' in g.bound ? g.bound.min : g.bound.max;
      parts.push(
        `<line x1="${x(b)}" y1="${y - 2}" x2="${x(b)}" y2="${y + 18}" ` +
          `stroke="${g.ok ? '#2a2' : '#d22'}" stroke-width="2"/>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

function failingRows(set: string, s: HtmlSet): string[] {
  const byId = new Map(s.cases.map((c) => [c.id, c]));
  const runs = new Map(s.report.runs.map((r) => [r.id, r]));
  return s.report.cases
    .filter((c) => !c.ok)
    .map((c) => {
      const def = byId.get(c.id) ?? byId.get(c.id.replace(/@\w+$/, ''));
      const run = runs.get(c.id);
      const turns = (def?.turns ?? []).map((t, i) => {
        const o = run?.turns[i];
        const proposed = o?.calls.map((k) => `${k.name} ${JSON.stringify(k.args)}`).join('\n') || '(no calls)';
        const expected = [
          t.expect.tools ? `tools ${JSON.stringify(t.expect.tools)}` : '',
          t.expect.args ? `args ${JSON.stringify(t.expect.args)}` : '',
          t.expect.clarify ? 'a clarifying question' : '',
          t.expect.rows ? `rows ${JSON.stringify(t.expect.rows)}` : '',
          t.expect.no_rows ? `no rows ${JSON.stringify(t.expect.no_rows)}` : '',
          t.expect.reply_from_article ? `from ${JSON.stringify(t.expect.reply_from_article)}` : '',
          t.expect.reply_includes ? `reply has ${JSON.stringify(t.expect.reply_includes)}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        return (
          `<tr><td class="msg">${esc(t.message)}</td><td><pre>${esc(expected)}</pre></td>` +
          `<td><pre>${esc(proposed)}</pre><div class="reply">${esc(o?.reply ?? '')}</div></td></tr>`
        );
      });
      return (
        `<tr class="case"><th colspan="3">${esc(set)} · ${esc(c.id)} <span>[${esc(c.kind)}]</span>` +
        `<ul>${c.failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></th></tr>${turns.join('')}`
      );
    });
}

export function htmlReport(sets: Record<string, HtmlSet>, title = 'Eval report'): string {
  const names = Object.keys(sets);
  const summary = names
    .map((n) => {
      const r = sets[n]!.report;
      const rep = sets[n]!.repeat;
      return (
        `<li><b>${esc(n)}</b>: ${r.cases.length} cases, model ${esc(r.model)}, ${(r.ms / 1000).toFixed(1)} s` +
        (rep ? `, ${rep.trials} runs: ${rep.pass_hat.map((p) => `pass^${p.k} ${pct(p.value)}`).join(', ')}` : '') +
        `; prompt tokens per plan call (Gemini request), mean / p95: ${esc(promptTokensCell(r))}</li>`
      );
    })
    .join('');
  const charts = METRIC_NAMES.map((m) => {
    const first = sets[names[0]!]!.report.metrics[m];
    const cells = names
      .map((n) => {
        const x = sets[n]!.report.metrics[m];
        return `${esc(n)} ${x.k}/${x.n} ${pct(x.value)} [${pct(x.ci[0])}, ${pct(x.ci[1])}]`;
      })
      .join('<br>');
    const caption = `${esc(first.label)}${first.better === 'lower' ? ' (lower is better)' : ''}`;
    return `<figure><figcaption>${caption}</figcaption>${metricChart(m, sets)}<p>${cells}</p></figure>`;
  }).join('');
  const failing = names.flatMap((n) => failingRows(n, sets[n]!));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
figure{display:inline-block;margin:0 16px 16px 0;vertical-align:top;border:1px solid #eee;padding:8px}
figcaption{font-weight:600;margin-bottom:4px}figure p{font-size:11px;color:#555;margin:4px 0 0}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:6px;vertical-align:top;text-align:left}
tr.case th{background:#f6f6f6}tr.case span{font-weight:400;color:#666}pre{white-space:pre-wrap;margin:0;font-size:12px}
.reply{color:#555;font-size:12px;margin-top:4px;border-top:1px dashed #ddd}td.msg{width:25%}
</style></head><body>
<h1>${esc(title)}</h1><ul>${summary}</ul>
<h2>Metrics (bar: value, whisker: 95% Wilson interval, tick: gate — green held, red missed)</h2>${charts}
<h2>Failing cases (${failing.length})</h2>
${failingTable(failing)}
</body></html>
`;
}

const FAILING_HEAD = '<tr><th>message</th><th>expected</th><th>proposed (and the reply)</th></tr>';
const failingTable = (rows: string[]) =>
  rows.length ? `<table>${FAILING_HEAD}${rows.join('')}</table>` : '<p>All cases passed.</p>';
