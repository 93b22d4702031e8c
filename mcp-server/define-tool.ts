import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../core/clock.js';
import type { Pool, PoolClient } from '../core/db.js';
import type { Logger } from '../core/logger.js';

/** On whose behalf a call is made; decided by `scopeFor` (caller.ts) from the credential and `_meta`, enforced by the handlers. */
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
}

// zod objects, possibly carrying refinements (still ZodObject in zod 4).
type AnyObject = z.ZodObject<z.ZodRawShape>;

interface ToolBase<I extends AnyObject, O extends AnyObject> {
  name: string;
  title: string;
  /** Written for the model: when to use it, what it needs, what it returns. */
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  /** Plain words for people (approval cards, audit): "Book a visit". */
  verb: string;
}

export interface ReadTool<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> extends ToolBase<I, O> {
  mutating: false;
  handler(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
}

export interface WriteTool<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> extends ToolBase<I, O> {
  mutating: true;
  handler(args: z.output<I>, ctx: WriteContext): Promise<z.output<O>>;
}

export type ToolDefinition = ReadTool | WriteTool;

export const defineReadTool = <I extends AnyObject, O extends AnyObject>(
  t: Omit<ReadTool<I, O>, 'mutating' | 'annotations'> & { annotations?: ReadTool['annotations'] },
): ReadTool<I, O> => ({
  ...t,
  mutating: false,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false, ...t.annotations },
});

export const defineWriteTool = <I extends AnyObject, O extends AnyObject>(
  t: Omit<WriteTool<I, O>, 'mutating'>,
): WriteTool<I, O> => ({ ...t, mutating: true, annotations: { readOnlyHint: false, ...t.annotations } });
