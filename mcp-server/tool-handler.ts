import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Pool, PoolClient } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import type { ReadContract, ToolContract, WriteContract } from '../schema/tools/contract.js';

/**
 * On whose behalf a call is made; decided by `scopeFor` (caller.ts) from the credential and `_meta`, enforced by the
 * handlers.
 */
export type ToolScope =
  | { kind: 'customer'; customerId: string }
  | { kind: 'staff'; staffId: string }
  /** Someone we can't tie to a customer (an unlinked Slack user): the knowledge base only. */
  | { kind: 'anonymous' };

export interface ToolContext {
  pool: Pool;
  clock: Clock;
  timeZone: string;
  logger: Logger;
  scope: ToolScope;
  threadId?: string;
  /** Which credential made the call (`callerLabel`), kept in the audit trail beside the actor. */
  via?: string;
}

/** A mutating handler runs inside the gate's transaction and must use `tx` for every statement. */
export interface WriteContext extends ToolContext {
  tx: PoolClient;
  approvalId: string;
  /**
   * When the customer asked: the approval's creation (a rehearsal: now). Policies that depend on
   * notice use it, as the help centre promises ("timing rules use the moment you made the request").
   */
  requestedAt: Date;
}

/** A read-only tool as served: its contract and the handler that answers it. */
export interface ReadTool<C extends ReadContract = ReadContract> extends ReadContract {
  handler: ReadHandler<C>;
}

/** A mutating tool as served: the gate calls its handler inside the approval's transaction. */
export interface WriteTool<C extends WriteContract = WriteContract> extends WriteContract {
  handler: WriteHandler<C>;
}

export type ToolDefinition = ReadTool | WriteTool;

export type ReadHandler<C extends ReadContract> = (
  args: z.output<C['input']>,
  ctx: ToolContext,
) => Promise<z.output<C['output']>>;

export type WriteHandler<C extends WriteContract> = (
  args: z.output<C['input']>,
  ctx: WriteContext,
) => Promise<z.output<C['output']>>;

/** The handler a contract needs: typed by its own schemas, with the write context for a write. */
export type HandlerFor<C extends ToolContract> = C extends WriteContract
  ? WriteHandler<C>
  : C extends ReadContract
    ? ReadHandler<C>
    : never;
