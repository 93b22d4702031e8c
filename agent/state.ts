import { Annotation } from '@langchain/langgraph';
import type { BaseMessage } from '@langchain/core/messages';
import type { PendingApproval, PlanContext } from './plan-context.js';
import type { Reply } from './reply.js';

/**
 * Merge: same id → replaced in place, else appended. `{ drop, append }` trims the window's head by
 * id, so the update written to the checkpoint is a delta, not the window again.
 */
export type MessagesUpdate = BaseMessage[] | { drop: string[]; append: BaseMessage[] };

export function mergeMessages(left: BaseMessage[], right: MessagesUpdate): BaseMessage[] {
  if (!Array.isArray(right)) {
    const drop = new Set(right.drop);
    return mergeMessages(
      left.filter((m) => !m.id || !drop.has(m.id)),
      right.append,
    );
  }
  const out = [...left];
  for (const m of right) {
    const i = m.id ? out.findIndex((x) => x.id === m.id) : -1;
    if (i >= 0) out[i] = m;
    else out.push(m);
  }
  return out;
}

/** Added to the run's replies; `null` resets them; `{ only }` resets them to these (a reset and an add in one step). */
export type RepliesUpdate = Reply[] | null | { only: Reply[] };

function mergeReplies(left: Reply[], right: RepliesUpdate): Reply[] {
  if (right === null) return [];
  return Array.isArray(right) ? [...left, ...right] : right.only;
}

/**
 * The graph state, kept small on purpose: the checkpoint stores it at every step, so it holds a
 * bounded window of messages plus a short summary; the full transcript lives in
 * `conversation_messages`. Checkpoint bytes per turn stay flat however long the thread gets.
 */
export const AgentState = Annotation.Root({
  threadId: Annotation<string>(),
  customerId: Annotation<string | null>(),
  /** The customer's newest message, set by the caller (input or resume). */
  incoming: Annotation<string | null>(),
  /** Id for the incoming message (derived from the delivery's key), so a retried delivery is recognised. */
  incomingId: Annotation<string | null>({ reducer: (_, b) => b, default: () => null }),
  messages: Annotation<BaseMessage[], MessagesUpdate>({ reducer: mergeMessages, default: () => [] }),
  summary: Annotation<string>({ reducer: (_, b) => b, default: () => '' }),
  retrieved: Annotation<PlanContext['retrieved']>({ reducer: (_, b) => b, default: () => [] }),
  pending: Annotation<PendingApproval[]>({ reducer: (_, b) => b, default: () => [] }),
  /** Plan calls in the current run; bounded so a looping model can't spin forever. */
  steps: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  /**
   * Replies produced by the current run, each marked personal or not; `null` resets at the start of
   * a run. (Checkpoints from before the mark hold plain strings: read them with `replyOf`.)
   */
  replies: Annotation<Reply[], RepliesUpdate>({ reducer: mergeReplies, default: () => [] }),
  /** The approval a resumed decision is about, while it is being applied. */
  deciding: Annotation<string | null>({ reducer: (_, b) => b, default: () => null }),
});

export type AgentStateType = typeof AgentState.State;
export type AgentUpdate = typeof AgentState.Update;

/** What a paused thread can be resumed with. */
export type ResumeValue = { kind: 'message'; text: string; id?: string } | { kind: 'decision'; approvalId: string };

// The nodes never write LangGraph's Overwrite values: their updates go through the reducers.
const messagesOf = (u: AgentUpdate) => u.messages as MessagesUpdate | undefined;
const repliesOf = (u: AgentUpdate) => u.replies as RepliesUpdate | undefined;

/** The state `update` leaves, through the same reducers LangGraph applies. */
export function applyUpdate(state: AgentStateType, update: AgentUpdate): AgentStateType {
  const next = { ...state, ...update } as AgentStateType;
  const messages = messagesOf(update);
  const replies = repliesOf(update);
  if (messages !== undefined) next.messages = mergeMessages(state.messages, messages);
  if (replies !== undefined) next.replies = mergeReplies(state.replies, replies);
  return next;
}

/**
 * One update with the effect of `a` then `b`, so that two nodes' work can be one graph step (one
 * checkpoint, one pass of LangGraph's machinery) and still reach the state the two steps reached.
 */
export function combineUpdates(a: AgentUpdate, b: AgentUpdate): AgentUpdate {
  const out: AgentUpdate = { ...a, ...b };
  const [ma, mb, ra, rb] = [messagesOf(a), messagesOf(b), repliesOf(a), repliesOf(b)];
  if (ma !== undefined && mb !== undefined) out.messages = concatMessages(ma, mb);
  if (ra !== undefined && rb !== undefined) out.replies = concatReplies(ra, rb);
  return out;
}

function concatMessages(a: MessagesUpdate, b: MessagesUpdate): MessagesUpdate {
  // A trim drops from the window as it was before the step, so it can only come first.
  if (!Array.isArray(b)) throw new Error('a window trim must be the first update of a step');
  return Array.isArray(a) ? [...a, ...b] : { drop: a.drop, append: [...a.append, ...b] };
}

function concatReplies(a: RepliesUpdate, b: RepliesUpdate): RepliesUpdate {
  if (b === null || !Array.isArray(b)) return b;
  if (a === null) return { only: b };
  return Array.isArray(a) ? [...a, ...b] : { only: [...a.only, ...b] };
}
