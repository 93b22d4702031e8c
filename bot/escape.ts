/**
 * Text that came from a customer, a model or a form goes into Slack mrkdwn only through here.
 *
 * Slack's rules: `&`, `<` and `>` are the only control characters, and every special token
 * (`<!channel>`, `<@U…>`, `<#C…>`, `<http://x|label>`) needs a literal `<`. Escaping them turns
 * any such token into visible text: nobody is pinged and no link shows a fake label. The bare
 * words `@channel` / `@here` / `@everyone` are not mentions for a bot message (we never send
 * `link_names`), but a zero-width space after the `@` keeps it that way if that ever changes.
 * `*`, `_`, `~` and backticks stay: at worst they change emphasis inside the quote.
 */
export function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(channel|here|everyone)\b/gi, '@\u200B$1');
}

/** Shorten to at most `max` characters (before escaping), marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * Untrusted text as block-quote chunks whose escaped form fits `maxChars` each (a section's text
 * holds 3000): escaping can grow text fivefold (`&` → `&amp;`), so chunks are measured after it.
 */
export function quoteChunks(text: string, maxChars = 2900): string[] {
  const lines = text.replace(/\r\n?/g, '\n').trim().split('\n');
  const piece = Math.max(1, Math.floor((maxChars - 2) / 5));
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    const whole = `>${escapeText(line)}`;
    const parts = whole.length <= maxChars ? [whole] : splitLine(line, piece).map((p) => `>${escapeText(p)}`);
    for (const q of parts) {
      if (current && current.length + 1 + q.length > maxChars) {
        chunks.push(current);
        current = q;
      } else current = current ? `${current}\n${q}` : q;
    }
  }
  chunks.push(current || '>(empty)');
  return chunks;
}

/** Cut a long line into pieces of at most `max` characters, at a space where there is one. */
function splitLine(line: string, max: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const cut = space > max / 2 ? space + 1 : max;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) out.push(rest);
  return out;
}

/** One block quote of untrusted text, escaped and cut to fit `maxChars` (marked with … when cut). */
export function quote(text: string, maxChars = 2900): string {
  const chunks = quoteChunks(text, maxChars - 3);
  return chunks.length > 1 ? `${chunks[0]}\n>…` : chunks[0]!;
}

/** How a stored approver (`slack:U…`, `api:name`, `system`) is shown: a real mention only for Slack users. */
export function approverMention(approver: string | null | undefined): string {
  if (!approver) return 'someone';
  const slack = /^slack:([UW][A-Z0-9]{2,})$/.exec(approver);
  if (slack) return `<@${slack[1]}>`;
  if (approver.startsWith('api:')) return `${escapeText(approver.slice(4))} (via the API)`;
  return escapeText(approver);
}

/** Slack user ids only: anything else is refused before it reaches a query or a mention. */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,20}$/;
