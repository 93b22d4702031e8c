import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { BUSINESS } from '../../../../schema/business/profile.js';
import { aiBeforeLastCustomer } from '../conversation.js';
import { clip, messageText, normalize } from '../analysis/text.js';
import { emailBody } from '../replies/templates.js';

/*
 * "great can u email me that so i have it in writing" right after we quoted the help centre: "that" is
 * the answer just given. Our own message is the source, since the help-centre search of this message is
 * about email, not about the question answered before it.
 */

/** How our replies quote an article: `help article "Title" says: "…"`, up to what we add after the quote. */
const QUOTED = /help article "([^"\n]{1,200})" says: "([\s\S]+?)"(?=\s*(?:$|\n|Would you like|Is there anything))/g;

/** The request points back at what was said ("that", "this", "what you said", "in writing"), naming nothing new. */
const POINTS_BACK = new RegExp(
  String.raw`\b(?:e-?mail|send|forward|put)\w*\s+(?:me\s+|it\s+|that\s+|this\s+)*` +
    String.raw`(?:that|this|it|those|these|the (?:answer|info|information|article|details|same)|` +
    String.raw`what you (?:said|wrote|sent|just said))\b(?!\s+(?:of|about|for|on|from)\b)|` +
    String.raw`\bin writing\b|\bcopy of (?:that|this|it)\b(?!\s+(?:of|about|for|on|from)\b)`,
);

/** The help-centre passages our last message quoted, when the email asked for points back at them. */
export function quotedAnswer(messages: BaseMessage[], text: string): { title: string; quote: string }[] {
  if (!POINTS_BACK.test(normalize(text))) return [];
  const prev = messages[aiBeforeLastCustomer(messages)];
  if (!prev || !AIMessage.isInstance(prev) || prev.tool_calls?.length) return [];
  return [...messageText(prev).matchAll(QUOTED)].map((m) => ({ title: m[1]!, quote: m[2]!.trim() }));
}

/** The email of those passages, each under its article's title. */
export function quotedAnswerEmail(
  customerId: string,
  name: string,
  quotes: { title: string; quote: string }[],
): { customer_id: string; subject: string; body: string } {
  const titles = [...new Set(quotes.map((q) => q.title))];
  return {
    customer_id: customerId,
    subject: clip(`${titles.join(', ')} (${BUSINESS.shortName})`, 200),
    body: emailBody(
      name,
      'Here is what our help centre says, as you asked:',
      quotes.flatMap((q, i) => [...(i ? [''] : []), `From "${q.title}":`, clip(q.quote, 1500)]),
      'If you have any questions, just let us know in Slack.',
    ),
  };
}
