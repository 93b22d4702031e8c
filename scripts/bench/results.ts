/** The shape of a bench run's numbers (what --json writes, what the test checks). */
import type { PromptTokens } from './prompt-tokens.js';
import type { Summary } from './stats.js';

export interface Checkpoint {
  turns: number;
  total_bytes: number;
  bytes_per_turn: number;
  /** The thread's stored total at the end ÷ at the middle: ~2 when every turn adds the same, ~1 when bounded. */
  flatness: number | null;
  /** The total a 50-turn thread reaches (measured at 50 turns, or extrapolated per turn in quick mode). */
  total_kb_50: number;
}

export interface FlowResults {
  conversations: number;
  /** Conversations of the 16-in-flight runs that failed or got no answer within the driver's timeout. */
  failed_conversations: number;
  /** What those failures said, ids blanked: a timeout (a hang) or the HTTP error. */
  failure_kinds: string[];
  cpu_ms_per_conversation: number;
  node_cpu_ms_per_conversation: number;
  /** Of node: the worker's children, i.e. the product's stdio tool server (0 for bare, which has none). */
  tool_server_cpu_ms_per_conversation: number;
  /** null on a server whose processes the bench cannot see (DATABASE_URL). */
  postgres_cpu_ms_per_conversation: number | null;
  message_to_card_ms: Summary;
  click_to_executed_ms: Summary;
  throughput_per_s: { in_flight_1: number; in_flight_16: number; in_flight_16_two_workers?: number };
  sql_per_message: number | null;
  sql_per_approval: number | null;
  checkpoint: Checkpoint;
  rss_mb: { idle_worker: number; loaded_worker: number };
}

/** Many conversations started at once on one worker: the memory and latency they cost. */
export interface WideBurst {
  in_flight: number;
  failed_conversations: number;
  failure_kinds: string[];
  seconds: number;
  /** The worker and its children, sampled every 100 ms while the burst ran. */
  peak_rss_mb: number;
  message_to_card_ms: Summary;
  click_to_executed_ms: Summary;
}

export interface ProductResults extends FlowResults {
  in_flight_200: WideBurst;
  /** CPU cores kept busy (workers, tool servers, Postgres, the bench's driver and Slack) at 16 in flight. */
  cores_busy_at_16: {
    one_worker: number;
    two_workers: number;
    /** The whole machine's busy cores meanwhile (anything else running shows as the excess over ours). */
    machine_one_worker: number;
    machine_two_workers: number;
    machine: number;
  };
  slack_ack_ms: Summary & { server_p50: number; server_p95: number; server_max: number };
  prompt_tokens: PromptTokens;
}

export interface BenchResults {
  meta: {
    mode: 'quick' | 'full';
    database: 'embedded' | 'DATABASE_URL';
    statements_counted_by: 'pg_stat_statements' | 'not available';
    planner: 'offline';
    rounds: number;
    /** One-worker and two-worker bursts at 16 in flight, alternated and pooled. */
    throughput_pairs: number;
    node: string;
    /** The command line of every process in the measured trees (the worker first), while idle. */
    processes: { product: string[]; bare: string[] };
    at: string;
  };
  product: ProductResults;
  bare: FlowResults;
  ratios: {
    cpu_per_conversation: number | null;
    node_cpu_per_conversation: number | null;
    postgres_cpu_per_conversation: number | null;
    message_to_card_p50: number | null;
    click_to_executed_p50: number | null;
    throughput_1: number | null;
    throughput_16: number | null;
    two_workers_vs_one: number | null;
    sql_per_message: number | null;
    sql_per_approval: number | null;
    checkpoint_bytes_per_turn: number | null;
    idle_rss: number | null;
  };
}
