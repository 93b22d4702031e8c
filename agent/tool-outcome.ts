import { randomUUID } from 'node:crypto';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ApprovalEvent } from './plan-context.js';

export interface ToolErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * What happened to one tool call of the model, as the nodes record it: proposed and waiting for a
 * manager, answered, or refused. It rides on the tool message as `artifact` (kept in checkpoints,
 * never shown to the model); the message's text is the same outcome in the JSON the model reads.
 */
export type ToolOutcome =
  | { kind: 'pending_approval'; approval_id: string; expires_at: string; note?: string; replaces?: string[] }
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: ToolErrorBody };

/** The outcome as the model reads it in the tool message's text. */
export function toolOutcomeBody(outcome: ToolOutcome): unknown {
  switch (outcome.kind) {
    case 'pending_approval': {
      const { kind, ...rest } = outcome;
      return { status: kind, ...rest };
    }
    case 'result':
      return outcome.result;
    case 'error':
      return { error: outcome.error };
  }
}

export function toolOutcomeMessage(callId: string, name: string, outcome: ToolOutcome): ToolMessage {
  return new ToolMessage({
    id: randomUUID(),
    content: JSON.stringify(toolOutcomeBody(outcome)),
    artifact: outcome,
    tool_call_id: callId,
    name,
    status: outcome.kind === 'error' ? 'error' : 'success',
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const KINDS = new Set<unknown>(['pending_approval', 'result', 'error']);

/**
 * The outcome a tool message records; undefined for any other message. Messages from before
 * outcomes were typed (older checkpoints, hand-built test messages) carry only text: that is read
 * here, the one place that parses a tool message.
 */
export function toolOutcomeOf(m: BaseMessage): ToolOutcome | undefined {
  if (!ToolMessage.isInstance(m)) return undefined;
  if (isRecord(m.artifact) && KINDS.has(m.artifact.kind)) return m.artifact as ToolOutcome;
  const text =
    typeof m.content === 'string'
      ? m.content
      : m.content.map((c) => (typeof c === 'string' ? c : 'text' in c ? String(c.text) : '')).join('');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text: a result, or an error's message
  }
  if (isRecord(body) && body.status === 'pending_approval' && typeof body.approval_id === 'string') {
    const { status: _, ...rest } = body;
    return { kind: 'pending_approval', ...rest } as ToolOutcome;
  }
  if (isRecord(body) && isRecord(body.error)) return { kind: 'error', error: body.error as unknown as ToolErrorBody };
  if (m.status === 'error') return { kind: 'error', error: { message: text } as ToolErrorBody };
  return { kind: 'result', result: body };
}

export const isPendingApproval = (m: BaseMessage): boolean => toolOutcomeOf(m)?.kind === 'pending_approval';

/** The conversation's customer, which the plan step fills in every call: the model needs not read it back. */
function withoutCustomerId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCustomerId);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'customer_id')
      .map(([k, v]) => [k, withoutCustomerId(v)]),
  );
}

const json = (v: unknown) => JSON.stringify(withoutCustomerId(v));

/**
 * A manager's decision (or a request's end) as the model reads it, short because every later plan
 * call of the thread pays for it. An executed write shows its result only: the result holds the
 * record as written, and after an edit the model's own call already carries the edited arguments.
 */
export function approvalUpdateText(event: ApprovalEvent): string {
  const what = `${event.tool} ${json(event.args)}`;
  const approved = `approved${event.edited ? ' after a manager edited it' : ''}`;
  const lines: Record<ApprovalEvent['status'], string> = {
    executed: `${approved} and done: ${event.tool}. Result: ${json(event.result)}`,
    failed: `${approved} but it failed: ${what}. Error: ${json(event.error)}`,
    rejected: `rejected: ${what}. Reason: ${event.reason ?? '(none given)'}. Nothing was changed.`,
    expired: `expired, nobody decided in time: ${what}. Nothing was changed.`,
    superseded: `replaced by a newer request: ${what}.`,
    withdrawn: `withdrawn by the customer: ${what}. Nothing was changed.`,
  };
  return `[approval update ${event.approval_id}] ${lines[event.status]}`;
}
