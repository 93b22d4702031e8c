import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { approvalExpiry, childEnv, type Config, langSmithTracing } from '../core/config.js';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { Ledger } from './approvals/ledger.js';
import { CompressedSerializer } from './compressed-serde.js';
import { buildGraph, type AgentGraph } from './graph.js';
import { LeanPostgresSaver } from './lean-postgres-saver.js';
import type { DeliveryPort } from './delivery-port.js';
import { createChatModel } from './model/index.js';
import { AgentService } from './service.js';
import { httpTransport, stdioTransport, ToolClient } from './tool-client.js';
import { TurnCustomers } from './turn-customer.js';
import { useLightRunContext } from './run-context.js';
import { startTracing } from './tracing.js';

export interface AgentRuntime {
  service: AgentService;
  graph: AgentGraph;
  tools: ToolClient;
  ledger: Ledger;
  model: BaseChatModel;
  workerId: string;
  close(): Promise<void>;
}

/**
 * Wire the agent: tool server session (stdio child, shared HTTP service, or a transport the
 * caller gives, e.g. in-process for evals), Postgres checkpointer, ledger, model, tracing.
 */
export async function createAgentRuntime(opts: {
  config: Config;
  pool: Pool;
  databaseUrl: string;
  clock: Clock;
  logger: Logger;
  model?: BaseChatModel;
  transport?: Transport;
  workerId?: string;
  /** Where replies and card updates go (the bot); without one, replies are delivered by being stored. */
  delivery?: DeliveryPort;
}): Promise<AgentRuntime> {
  const { config, pool, clock, logger } = opts;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // A factory, not a transport: the client opens a new session (a new stdio child) when one is
  // lost. A transport the caller gives is used as is and cannot be reopened.
  const mcpUrl = config.MCP_URL;
  // The child parses its own config: hand it ours where it matters (the same database, clock,
  // time zone and log level), whatever the parent's environment says.
  const env = childEnv({
    DATABASE_URL: opts.databaseUrl,
    SEED_DEMO: 'false',
    LOG_LEVEL: config.LOG_LEVEL,
    FIXED_NOW: config.FIXED_NOW ?? '',
    BUSINESS_TIMEZONE: config.BUSINESS_TIMEZONE,
    DATA_DIR: config.DATA_DIR,
  });
  const transport: Transport | (() => Transport) =
    opts.transport ?? (mcpUrl ? () => httpTransport(mcpUrl, config.MCP_API_KEY) : () => stdioTransport(env));
  const tools = await ToolClient.connect(transport, { logger });
  const tracing = await startTracing(config, logger);
  if (!langSmithTracing(config)) useLightRunContext();
  const model = opts.model ?? (await createChatModel(config, logger));
  const ledger = new Ledger(pool, clock, { policy: approvalExpiry(config), timeZone: config.BUSINESS_TIMEZONE });
  const checkpoints = new LeanPostgresSaver(pool, new CompressedSerializer());
  const turnCustomers = new TurnCustomers();
  const graph = buildGraph(
    { pool, tools, ledger, model, clock, timeZone: config.BUSINESS_TIMEZONE, logger, workerId, turnCustomers },
    checkpoints,
  );
  const service = new AgentService({
    pool,
    graph,
    checkpoints,
    ledger,
    clock,
    logger,
    workerId,
    callbacks: tracing.callbacks,
    leaseTtlMs: config.THREAD_LEASE_SECONDS * 1000,
    tools,
    leaseWaitMs: config.THREAD_WAIT_MS,
    maxConcurrentRuns: config.MAX_CONCURRENT_RUNS,
    maxQueuedRuns: config.MAX_QUEUED_RUNS,
    delivery: opts.delivery,
    turnCustomers,
  });
  return {
    service,
    graph,
    tools,
    ledger,
    model,
    workerId,
    close: async () => {
      await tools.close().catch(() => undefined);
      await tracing.shutdown();
    },
  };
}
