/** `npx tsx scripts/bench/plan-prompt-main.ts`: prompt tokens per part of single plan calls, no database. */
import { runMain } from '../../core/run-main.js';
import { measurePlanTurns } from './plan-prompt.js';

runMain(async () => {
  const rows = await measurePlanTurns();
  console.table(rows);
});
