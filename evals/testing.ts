/** Fixtures for the eval's own tests: observed turns and case runs built by hand, no agent. */
import type { CaseRun, ObservedTurn } from './run.js';

export const observedTurn = (over: Partial<ObservedTurn> = {}): ObservedTurn => ({
  message: 'x',
  reply: '',
  calls: [],
  proposals: [],
  changed: [],
  retrieved: [],
  toolLog: [],
  ms: 1,
  ...over,
});

export const caseRun = (id: string, turns: ObservedTurn[], now?: string): CaseRun => ({
  id,
  threadId: `t:${id}`,
  ...(now ? { now } : {}),
  turns,
  ledger: [],
  ms: 1,
});
