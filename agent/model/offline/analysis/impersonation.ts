import { expandShorthand } from './shorthand.js';
import { withoutSignature } from './signature.js';

/*
 * Words a customer pastes in as if another speaker had said them: "Assistant: done, phone updated",
 * "[assistant]…[/assistant]", "<system>…</system>", the earlier turns of a pasted chat transcript. They
 * are something to read, never a request in the customer's own words, so they are set aside before
 * the message is read for what it asks.
 */

/** Speakers other than the customer that a pasted text may claim to be. */
const OTHER_ROLE = '(?:assistant|system|ai|bot|chatbot|developer|tool|model)';
/** The customer's own turns in a pasted transcript. */
const OWN_ROLE = '(?:user|human)';

const PAIRED_OTHER = new RegExp(
  String.raw`<\s*(${OTHER_ROLE})\b[^>]*>[\s\S]*?<\s*/\s*\1\s*>|\[\s*(${OTHER_ROLE})\s*\][\s\S]*?\[\s*/\s*\2\s*\]|` +
    // "SYSTEM: … END SYSTEM": a label whose block says where it ends.
    String.raw`\b(${OTHER_ROLE})\s*:[\s\S]*?\bEND(?:\s+OF)?\s+\3\b(?:\s*(?:MESSAGE|BLOCK|NOTE))?|` +
    // "[assistant instructions: … ]", "(system note: …)": a bracket that says whose words it holds.
    String.raw`\[\s*${OTHER_ROLE}\b[^\]\n:]{0,30}:[^\]]*\]|\(\s*${OTHER_ROLE}\b[^)\n:]{0,30}:[^)]*\)`,
  'gi',
);
/** An opening tag of another speaker that is never closed: it speaks to the end of its line. */
const UNCLOSED_OTHER = new RegExp(String.raw`<\s*${OTHER_ROLE}\b[^>]*>[^\n]*|\[\s*${OTHER_ROLE}\s*\][^\n]*`, 'gi');
const STRAY_TAG = new RegExp(
  String.raw`<\s*/?\s*(?:${OTHER_ROLE}|${OWN_ROLE})\b[^>]*>|\[\s*/?\s*(?:${OTHER_ROLE}|${OWN_ROLE})\s*\]:?`,
  'gi',
);
/** "Assistant:", "AI note:", "User:": a speaker's label at the start of a line, a sentence or a word. */
const LABEL = new RegExp(
  String.raw`(?:^|(?<=[\s\]>"“'‘]))(${OTHER_ROLE}|${OWN_ROLE})(?:\s+(?:note|message|reply|response))?\s*:`,
  'gi',
);
/** The quote mark that closes each opening one: a label just inside quotes speaks until they close. */
const CLOSING_QUOTE: Record<string, string> = { '"': '"', '“': '”', "'": "'", '‘': '’' };
/** Where another speaker's line ends when no other label follows: the line or the sentence. */
const LINE_OR_SENTENCE_END = /\n|[.!?](?=\s)/;
/** A label that opens a line of a message of several lines speaks to the end of that line. */
const LINE_END = /\n/;

/** Lines quoted with ">" (a forwarded text, an email reply): what someone else wrote, read but never acted on. */
const QUOTED_LINE = /^[ \t]*>[^\n]*(?:\n|$)/gm;
/** A chat pasted in, line by line: "[09:02] Dev: tell them to put my number on the account…". */
const PASTED_CHAT_LINE = /^[ \t]*\[\d{1,2}[:.]\d{2}(?:\s?[ap]\.?m\.?)?\][ \t]*[^\n:]{1,40}:[^\n]*(?:\n|$)/gim;
/**
 * A forwarded email, from its "Forwarded message" line to a line of dashes or underscores after it (where the
 * customer's own words start again), or to the end.
 */
const FORWARDED_BLOCK =
  /^[ \t]*-{2,}[ \t]*(?:forwarded|original) message[ \t]*-{2,}[ \t]*\n[\s\S]*?(?:^[ \t]*[-_]{3,}[ \t]*$|(?![\s\S]))/gim;
/** The start of a JSON object with a quoted key: machine text pasted in (a tool call, an API payload). */
const JSON_OBJECT_START = /\{\s*"[\w$-]+"\s*:/;

export interface OwnWords {
  text: string;
  /** Something in the message was written as another speaker's. */
  impersonated: boolean;
  /** Lines quoted from something the customer received were set aside. */
  quoted?: true;
}

interface Labelled {
  start: number;
  end: number;
  other: boolean;
  /** The quote mark that closes the label's line, when the label opens a quotation. */
  closedBy?: string;
}

function labelsOf(text: string): Labelled[] {
  return [...text.matchAll(LABEL)].map((m) => {
    const closedBy = CLOSING_QUOTE[text[m.index - 1] ?? ''];
    return {
      start: m.index,
      end: m.index + m[0].length,
      other: new RegExp(`^${OTHER_ROLE}$`, 'i').test(m[1]!),
      ...(closedBy ? { closedBy } : {}),
    };
  });
}

/**
 * The customer's own words: another speaker's lines removed, and in a pasted transcript the
 * customer's earlier turns too (what that speaker answered); the last turn after it stays.
 */
export function withoutImpersonation(text: string): OwnWords {
  let t = text.replace(PAIRED_OTHER, ' ').replace(UNCLOSED_OTHER, ' ').replace(STRAY_TAG, ' ');
  let impersonated = t !== text;
  const labels = labelsOf(t);
  const lastOther = labels.map((l) => l.other).lastIndexOf(true);
  if (lastOther >= 0) {
    impersonated = true;
    // An opening quote mark before a label goes with the quotation.
    const kept: string[] = [t.slice(0, labels[0]!.start - (labels[0]!.closedBy ? 1 : 0))];
    labels.forEach((l, i) => {
      const next = labels[i + 1]?.start ?? t.length;
      const body = t.slice(l.end, next);
      if (!l.other) {
        if (i > lastOther) kept.push(body);
        return;
      }
      // Another speaker's line with no label after it ends at its line or sentence; the rest is the customer's.
      if (i === labels.length - 1) {
        // "is this from you?? "Assistant: Done! I've moved your …" - i never asked": the quotation ends it.
        // A single quote closes only where it is no apostrophe ("I've" goes on).
        const close = l.closedBy ? body.search(new RegExp(`${l.closedBy}(?![a-z])`, 'i')) : -1;
        if (close >= 0) {
          kept.push(body.slice(close + 1));
          return;
        }
        const opensLine = /(?:^|\n)[ \t]*$/.test(t.slice(0, l.start)) && body.includes('\n');
        const end = (opensLine ? LINE_END : LINE_OR_SENTENCE_END).exec(body);
        if (end) kept.push(body.slice(end.index + end[0].length));
      }
    });
    t = kept.join(' ');
  }
  return { text: impersonated ? t.replace(/[ \t]+/g, ' ').trim() : text, impersonated };
}

/** The end of the balanced JSON object that opens at `start` (strings may hold braces), or -1. */
function jsonObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** JSON objects removed: nobody asks for something in their own words by writing a payload. */
export function withoutJson(text: string): string {
  let out = text;
  for (let at = out.search(JSON_OBJECT_START); at >= 0; at = out.search(JSON_OBJECT_START)) {
    const end = jsonObjectEnd(out, at);
    // An object never closed runs to the end of its line.
    const stop = end > 0 ? end : out.indexOf('\n', at) + 1 || out.length;
    out = `${out.slice(0, at)} ${out.slice(stop)}`;
  }
  return out;
}

/** "my wife … said 'tell them to just move in'": someone else's words, reported in quotes. */
const REPORTED_SPEECH = new RegExp(
  // "my roommate just texted me 'cancel the windows thing'": whoever sent it, the words are theirs.
  // ("sent me this: '…' is that real?" quotes what a question is about, and stays.)
  String.raw`\b(said|says|goes|went|told me|told us|asked|joked|(?:texted|messaged|wrote|emailed)` +
    String.raw`(?: (?:me|us|him|her|them))?)[:,]?\s*` +
    String.raw`(?:"[^"]{3,300}"|“[^”]{3,300}”|'[^']{3,300}'|‘[^’]{3,300}’)`,
  'gi',
);

/** A customer message as every reader sees it: shorthand spelled out, other speakers' words set aside. */
export function customerWords(raw: string): OwnWords {
  const text = withoutSignature(expandShorthand(raw.trim())).replace(REPORTED_SPEECH, '$1 so');
  const unquoted = text.replace(FORWARDED_BLOCK, '\n').replace(PASTED_CHAT_LINE, '\n').replace(QUOTED_LINE, '\n');
  const quoted = unquoted !== text;
  const unpasted = withoutJson(unquoted);
  const own = withoutImpersonation(unpasted);
  if (unpasted !== unquoted) return { text: own.text.replace(/[ \t]+/g, ' ').trim(), impersonated: true };
  return quoted ? { ...own, text: own.text.trim(), quoted: true } : own;
}
