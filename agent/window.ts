import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalEventOf } from './plan-context.js';
import { isPendingApproval } from './tool-outcome.js';

export const DEFAULT_WINDOW = 14;
const SUMMARY_MAX_CHARS = 1500;

export const textOf = (m: BaseMessage): string =>
  typeof m.content === 'string'
    ? m.content
    : m.content.map((c) => (typeof c === 'string' ? c : 'text' in c ? String(c.text) : '')).join('');

const isCustomerMessage = (m: BaseMessage) => HumanMessage.isInstance(m) && !approvalEventOf(m);

/**
 * Keep the last `size` messages, starting at a customer message so that no tool result is cut
 * from its call. What falls out becomes one short summary line each.
 */
export function trimWindow(
  messages: BaseMessage[],
  size = DEFAULT_WINDOW,
): { window: BaseMessage[]; dropped: BaseMessage[] } {
  if (messages.length <= size) return { window: messages, dropped: [] };
  let start = messages.length - size;
  while (start < messages.length - 1 && !isCustomerMessage(messages[start]!)) start++;
  return { window: messages.slice(start), dropped: messages.slice(0, start) };
}

export function summarize(previous: string, dropped: BaseMessage[]): string {
  const lines = previous ? previous.split('\n') : [];
  for (const m of dropped) {
    const event = approvalEventOf(m);
    if (event)
      lines.push(
        `- ${event.tool} ${JSON.stringify(event.args)}: ${event.status}${event.reason ? ` (${event.reason})` : ''}`,
      );
    else if (isCustomerMessage(m)) lines.push(`- Customer: ${textOf(m).slice(0, 160)}`);
    else if (AIMessage.isInstance(m) && !m.tool_calls?.length && textOf(m))
      lines.push(`- Assistant: ${textOf(m).slice(0, 160)}`);
  }
  let out = lines.join('\n');
  while (out.length > SUMMARY_MAX_CHARS && lines.length > 1) {
    lines.shift();
    out = lines.join('\n');
  }
  return out;
}

export function lastCustomerText(messages: BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (isCustomerMessage(messages[i]!)) return textOf(messages[i]!);
  return '';
}

/** The most customer messages, and characters, one request keeps for its card (the newest win). */
export const REQUEST_MAX_MESSAGES = 10;
export const REQUEST_MAX_CHARS = 2000;
const LEFT_OUT = '…';
const SEPARATOR = '\n\n';

/** A reply that asks something back leaves the request open: the customer's answer belongs to it. */
const asksBack = (text: string) => /\?[\s"'”’)\]]*$/.test(text.trim());

/**
 * Where a request ends: a write went to a manager (what came before was that request), an
 * approval's outcome came back, or the assistant answered without asking anything back. Refusals
 * (a taken slot) and clarifying questions close nothing.
 */
function closesRequest(m: BaseMessage): boolean {
  if (approvalEventOf(m) || isPendingApproval(m)) return true;
  return AIMessage.isInstance(m) && !m.tool_calls?.length && textOf(m).trim() !== '' && !asksBack(textOf(m));
}

function collectRequest(messages: BaseMessage[]): { kept: string[]; leftOut: boolean } {
  let last = messages.length - 1;
  while (last >= 0 && !isCustomerMessage(messages[last]!)) last--;
  // Starting at the latest customer message: what follows it is this turn's own work, not a boundary.
  const said: string[] = [];
  for (let i = last; i >= 0; i--) {
    const m = messages[i]!;
    if (isCustomerMessage(m)) said.push(textOf(m).trim());
    else if (closesRequest(m)) break;
  }
  const kept: string[] = [];
  let used = 0;
  for (const text of said) {
    if (kept.length === REQUEST_MAX_MESSAGES) break;
    const cost = text.length + (kept.length ? SEPARATOR.length : 0);
    if (used + cost > REQUEST_MAX_CHARS) {
      if (!kept.length) kept.push(`${text.slice(0, REQUEST_MAX_CHARS - 1)}…`);
      break;
    }
    kept.push(text);
    used += cost;
  }
  return { kept: kept.reverse(), leftOut: kept.length < said.length };
}

/**
 * What the customer said for the request being proposed: their messages, oldest first, since the
 * conversation last closed a request before their latest message (see closesRequest). So "can you
 * move my deep clean", "Which day?", "wednesday" is one request on the manager's card, not only
 * its last word. At most REQUEST_MAX_MESSAGES messages and REQUEST_MAX_CHARS characters.
 */
export function requestMessages(messages: BaseMessage[]): string[] {
  return collectRequest(messages).kept;
}

/** requestMessages as stored on the approval: one paragraph per message, "…" first when earlier ones were cut. */
export function requestText(messages: BaseMessage[]): string {
  const { kept, leftOut } = collectRequest(messages);
  return (leftOut ? [LEFT_OUT, ...kept] : kept).join(SEPARATOR);
}
