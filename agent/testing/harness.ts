import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ManualClock } from '../../core/clock.js';
import { testConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../../core/testing/test-database.js';
import { createToolServer } from '../../mcp-server/server.js';
import type { DeliveryPort } from '../delivery-port.js';
import { createAgentRuntime, type AgentRuntime } from '../runtime.js';

export interface Harness {
  db: TestDatabase;
  clock: ManualClock;
  agent: AgentRuntime;
  close(): Promise<void>;
}

/** A seeded database, the real tool server in-process over an MCP in-memory pair, and the agent. */
export async function startHarness(
  opts: {
    model?: BaseChatModel;
    db?: TestDatabase;
    clock?: ManualClock;
    /** Wall-clock expiry (default 240); null: the configured business-time policy. */
    ttlMinutes?: number | null;
    workerId?: string;
    delivery?: DeliveryPort;
  } = {},
): Promise<Harness> {
  const clock = opts.clock ?? new ManualClock(TEST_NOW);
  const db = opts.db ?? (await createSeededDatabase({ clock }));
  return startAgentOn(db, clock, opts);
}

export async function startAgentOn(
  db: TestDatabase,
  clock: ManualClock,
  opts: {
    model?: BaseChatModel;
    ttlMinutes?: number | null;
    workerId?: string;
    leaseSeconds?: number;
    leaseWaitMs?: number;
    maxConcurrentRuns?: number;
    maxQueuedRuns?: number;
    /** The conversation's channel (default: replies are delivered by being stored). */
    delivery?: DeliveryPort;
  } = {},
): Promise<Harness> {
  const config = testConfig({
    APPROVAL_TTL_MINUTES: opts.ttlMinutes === null ? undefined : String(opts.ttlMinutes ?? 240),
    BUSINESS_TIMEZONE: TEST_TZ,
    THREAD_LEASE_SECONDS: String(opts.leaseSeconds ?? 60),
    ...(opts.leaseWaitMs !== undefined ? { THREAD_WAIT_MS: String(opts.leaseWaitMs) } : {}),
    ...(opts.maxConcurrentRuns !== undefined ? { MAX_CONCURRENT_RUNS: String(opts.maxConcurrentRuns) } : {}),
    ...(opts.maxQueuedRuns !== undefined ? { MAX_QUEUED_RUNS: String(opts.maxQueuedRuns) } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createToolServer({ pool: db.pool, clock, timeZone: TEST_TZ, logger: silentLogger });
  await server.connect(serverSide);
  const agent = await createAgentRuntime({
    config,
    pool: db.pool,
    databaseUrl: db.url,
    clock,
    logger: silentLogger,
    model: opts.model,
    transport: clientSide,
    workerId: opts.workerId,
    delivery: opts.delivery,
  });
  return {
    db,
    clock,
    agent,
    close: async () => {
      await agent.close();
      await server.close();
    },
  };
}
