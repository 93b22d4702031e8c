/*
 * What kind of fact a help-centre question asks for, and whether a sentence states one: "how much"
 * wants an amount, "how soon" or "is there a time limit" a length of time, "what time" a clock time,
 * "will someone tell me beforehand?" or "can you remind me?" a notice (we message, remind or call you).
 * Shared by the help-centre search (which picks a snippet's sentences and ranks articles by their best
 * passage) and the offline planner (which picks the sentence to quote), so both look for the same fact.
 */

export type AnswerKind = 'price' | 'duration' | 'clock' | 'percent' | 'notice';

const NUMBER_WORD = '(?:\\d+(?:\\.\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few|several)';

/** The questions' cues, each for the kind of fact that answers it. */
const CUES: Readonly<Record<AnswerKind, RegExp>> = {
  // A fee named in a condition ("does my discount come off the travel charge?") asks whether, not how much.
  price: new RegExp(
    [
      String.raw`\b(?:how much|costs?|price[sd]?|pricing|charged|pay|paying|bill|billed|billing|rates?)\b`,
      String.raw`\b(?:expensive|cheap(?:er)?|upfront|up front)\b`,
      String.raw`\b(?:is|are) there (?:an? |any )?(?:extra |additional )?(?:fee|charge)s?\b`,
      String.raw`\bwhat(?:'s| is| are)? (?:the |your )?(?:fee|charge)s?\b`,
    ].join('|'),
    'i',
  ),
  duration: new RegExp(
    [
      String.raw`\bhow (?:long|soon|quickly|fast|often|far (?:ahead|back|in advance))\b`,
      String.raw`\b(?:time limit|deadline|cut-?off|too late|that long)\b`,
      String.raw`\bhow many (?:days|hours|minutes|weeks|months|years)\b`,
      String.raw`\bwithin (?:what|how)\b`,
      String.raw`\bwhen (?:will|do|does|would) (?:i|it|they|we|my|the)\b[^?.!]*` +
        String.raw`\b(?:back|arrive|appear|show|expire|come)\b`,
    ].join('|'),
    'i',
  ),
  // "Are you closed on…?" asks whether, not when. "wat time", "wht time": typos of the cue count too.
  clock: new RegExp(
    String.raw`\bw(?:ha|a|ho|o|h)t tim(?:e|es)?\b|\b(?:which time|latest|earliest|how (?:late|early))\b|` +
      String.raw`\b(?:your|ur|the|open(?:ing)?|business|office|working) hours\b|\bclosing time\b|` +
      String.raw`\bwhen (?:do|does|are) (?:you|the office|your office) (?:open|close)\b`,
    'i',
  ),
  percent: /\b(?:how much off|how big (?:a|is the) discount|what(?:'s| is)? (?:the )?discount|what percent(?:age)?)\b/i,
  // Being told of something ("will someone tell me beforehand?", "remind me"), not "tell me the price".
  notice: new RegExp(
    [
      String.raw`\b(?:remind|notify|warn|alert) (?:me|us)\b|\bheads[- ]up\b`,
      String.raw`\b(?:be|get|getting) (?:told|notified|warned)\b`,
      String.raw`\b(?:will|would|does|do|can|could) (?:someone|somebody|anyone|you|they|the team|your team) ` +
        String.raw`(?:tell|let|message|text|email|call|contact|inform) (?:me|us)\b` +
        String.raw`(?! (?:how|what|which|why|about|the|your)\b)`,
      String.raw`\b(?:tell|let) (?:me|us)(?: know)? (?:beforehand|in advance|ahead|first|before)\b`,
    ].join('|'),
    'i',
  ),
};

const FACTS: Readonly<Record<AnswerKind, RegExp>> = {
  // Whether something costs is answered by an amount, or by a fee taken away ("we waive the fee", "free of charge").
  // "Does that cost more?" is answered by "there is no extra charge", "the price stays the same" or "50% of the
  // service price" as much as by $40.
  price: new RegExp(
    [
      String.raw`\$\d|\bwaive[sd]?\b|\bfree of charge\b|\bwithout (?:a|any) (?:extra |additional )?(?:fee|charge)\b`,
      String.raw`\bno (?:extra |additional )?(?:fee|charge|cost)\b|\bat no (?:extra |additional )?cost\b`,
      String.raw`\bcosts? nothing\b|\b(?:price|cost) (?:stays|is) the same\b|\bnever (?:pay|be charged)\b`,
      String.raw`\b\d+(?:\.\d+)?\s?% of (?:the |its |your |their |a )?(?:\w+ )?(?:price|fee|cost|total|bill)\b`,
    ].join('|'),
    'i',
  ),
  duration: new RegExp(
    `\\b${NUMBER_WORD}(?:\\s*(?:to|-|–)\\s*\\d+)?[\\s-](?:business |working |calendar )?` +
      '(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\\b',
    'i',
  ),
  clock: /\b\d{1,2}(?::\d\d)?\s?(?:a\.m\.|p\.m\.|am|pm)|\bnoon\b|\bmidnight\b/i,
  percent: /\d+\s?%/,
  notice: new RegExp(
    String.raw`\b(?:message|text|email|call|remind|notify|tell|contact|warn) you\b|\blet you know\b|` +
      String.raw`\byou (?:will |'ll )?(?:get|receive) (?:a |an )?(?:message|reminder|text|email|call|notification)\b`,
    'i',
  ),
};

/** The kinds of fact a question asks for (none for "can I…?" or "do you…?" alone). */
export function answerKinds(question: string): Set<AnswerKind> {
  const out = new Set<AnswerKind>();
  for (const kind of Object.keys(CUES) as AnswerKind[]) if (CUES[kind].test(question)) out.add(kind);
  return out;
}

/** How many of the asked-for kinds of fact a sentence states. */
export function statesKinds(sentence: string, kinds: ReadonlySet<AnswerKind>): number {
  let n = 0;
  for (const kind of kinds) if (FACTS[kind].test(sentence)) n++;
  return n;
}
