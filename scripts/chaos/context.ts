import type { Keys } from './api.js';
import type { Cluster } from './cluster.js';
import type { Rng } from './rng.js';
import type { Crash } from './workers.js';

/** How much each trial does: the full suite on demand, a short one inside `npm test`. */
export interface Sizes {
  decisionRounds: number;
  kills: number;
  directFaults: Fault[];
  pooledFaults: Fault[];
  fuzzCallsPerTransport: number;
  rateLimitTokens: number;
  /** After the faults end, how long approved work may take to reach executed/failed. */
  settleMs: number;
}

export type Fault =
  | { kind: 'restart'; mode: 'fast' | 'immediate'; traffic: boolean }
  | { kind: 'outage'; mode: 'fast' | 'immediate'; seconds: number; traffic: boolean };

export const describeFault = (f: Fault) =>
  f.kind === 'restart'
    ? `restart -m ${f.mode}${f.traffic ? '' : ' (idle)'}`
    : `stop -m ${f.mode}, ${f.seconds} s down, start${f.traffic ? '' : ' (idle)'}`;

// The sweeper waits 30 s before it takes over a decided approval whose worker died, then the
// thread lease (5 s here) must run out: settle deadlines sit well above both.
export const FULL: Sizes = {
  decisionRounds: 200,
  kills: 30,
  directFaults: [
    { kind: 'restart', mode: 'fast', traffic: true },
    { kind: 'restart', mode: 'immediate', traffic: true },
    { kind: 'outage', mode: 'immediate', seconds: 12, traffic: true },
    { kind: 'outage', mode: 'fast', seconds: 12, traffic: false },
  ],
  pooledFaults: [
    { kind: 'restart', mode: 'fast', traffic: true },
    { kind: 'restart', mode: 'immediate', traffic: true },
    { kind: 'outage', mode: 'immediate', seconds: 12, traffic: true },
    { kind: 'outage', mode: 'fast', seconds: 12, traffic: false },
  ],
  fuzzCallsPerTransport: 5_000,
  rateLimitTokens: 80,
  settleMs: 120_000,
};

export const SHORT: Sizes = {
  decisionRounds: 10,
  kills: 3,
  directFaults: [{ kind: 'restart', mode: 'immediate', traffic: true }],
  pooledFaults: [{ kind: 'outage', mode: 'immediate', seconds: 4, traffic: true }],
  fuzzCallsPerTransport: 150,
  rateLimitTokens: 80,
  settleMs: 75_000,
};

export interface ChaosContext {
  dir: string;
  cluster: Cluster;
  keys: Keys;
  rng: Rng;
  sizes: Sizes;
  /** Business clock of the workers: FIXED_NOW, or unset for the wall clock. */
  fixedNow?: string;
  /** Every unexpected worker exit so far (trials count the ones that happen during them). */
  crashes: Crash[];
  log(message: string): void;
}
