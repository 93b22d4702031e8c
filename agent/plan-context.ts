import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalUpdateText } from './tool-outcome.js';

/**
 * What the plan step knows besides the message window. The graph builds it; the system prompt
 * renders it for Gemini, and the offline planner reads it structurally from the system message's
 * `additional_kwargs.plan_context` (no prompt parsing).
 */
export const PendingApprovalSchema = z.object({
  approval_id: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  tool_call_id: z.string(),
  expires_at: z.string(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

export interface PlanContext {
  now: string;
  timeZone: string;
  /** The conversation's verified customer, or null for an unlinked Slack user (answers only). */
  customer: { id: string; name: string; email: string | null; phone: string | null } | null;
  retrieved: { id: string; title: string; topic: string; snippet: string; score: number }[];
  pending: PendingApproval[];
  services: {
    id: string;
    name: string;
    category: string;
    duration_minutes: number;
    price_cents: number;
    /** The catalogue's own words for what the visit covers (and what it does not). */
    description?: string;
  }[];
  /** Short facts carried over from turns that left the window (last booking time, etc.). */
  summary: string;
}

export const PLAN_CONTEXT_KEY = 'plan_context';

export function planContextOf(messages: BaseMessage[]): PlanContext | undefined {
  const sys = messages.find((m) => SystemMessage.isInstance(m));
  return sys?.additional_kwargs?.[PLAN_CONTEXT_KEY] as PlanContext | undefined;
}

/**
 * The agent-internal tool the planner may call when the customer takes back a pending request.
 * It changes only the approval ledger (pending → withdrawn), never business data, so it is not
 * one of the registry's tools and needs no approval.
 */
export const WITHDRAW_TOOL = 'withdraw_request';
export const WithdrawArgsSchema = z.object({
  approval_id: z
    .string()
    .optional()
    .describe('The pending approval to withdraw; omit to withdraw all pending requests of this conversation.'),
  reason: z.string().max(500).optional().describe("The customer's reason, in their words."),
});

/** A decision or outcome on an approval, as the model sees it in the conversation. */
export type ApprovalEvent = {
  approval_id: string;
  tool: string;
  /** The arguments that were (or would have been) executed: the edited ones after an edit. */
  args: Record<string, unknown>;
  status: 'executed' | 'failed' | 'rejected' | 'expired' | 'superseded' | 'withdrawn';
  edited: boolean;
  original_args?: Record<string, unknown>;
  approver?: string;
  reason?: string;
  result?: unknown;
  error?: { code: string; message: string; details?: Record<string, unknown> };
};

export const APPROVAL_EVENT_KEY = 'approval_event';

export function approvalEventMessage(event: ApprovalEvent): HumanMessage {
  return new HumanMessage({
    id: randomUUID(),
    content: approvalUpdateText(event),
    name: 'approval_update',
    additional_kwargs: { [APPROVAL_EVENT_KEY]: event },
  });
}

export const approvalEventOf = (m: BaseMessage): ApprovalEvent | undefined =>
  HumanMessage.isInstance(m) ? (m.additional_kwargs?.[APPROVAL_EVENT_KEY] as ApprovalEvent | undefined) : undefined;

/** Replies from the offline planner say so in their metadata. */
export const FALLBACK_METADATA = { model: 'offline-planner', fallback: true } as const;
export const isFallbackReply = (m: AIMessage) => m.response_metadata?.fallback === true;
