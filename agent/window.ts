import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalEventOf } from './plan-context.js';

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
