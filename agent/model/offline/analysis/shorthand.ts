/*
 * Chat shorthand spelled out before a message is read, so that every reader (cues, dates, the
 * booking a change names) sees the same words: "tmrw's cleaning" is "tomorrow's cleaning".
 */

const SHORTHAND: readonly [RegExp, string][] = [
  [/\b(?:tmrw|tmrow|tmrrw|tmoro|tomoro|tomorow|2moro|2morrow|2mrw)\b/gi, 'tomorrow'],
  [/\btdy\b/gi, 'today'],
  [/\bappt(s?)\b/gi, 'appointment$1'],
  // "addr 221 Lantern St …": the address given after its abbreviation.
  [/\baddr\.?(?=\s*:?\s*\d)/gi, 'address'],
  // Words of other languages' habits: "annul the rendezvous of Wednesday" is "cancel the appointment".
  [/\bannul(?:led)?\b/gi, 'cancel'],
  [/\brendez-?vous\b/gi, 'appointment'],
  // Voice-to-text homophones: "i wood like to book … at for in the afternoon".
  [/\b(i|we) wood\b/gi, '$1 would'],
  [/\bat for\b(?=\s+(?:in the|pm|p\.m|o'?clock|thirty|fifteen))/gi, 'at four'],
  // Letters swapped in the words a request turns on: "cna you chnage my emial" (never inside an address or name).
  [/(?<![\w@.-])cna(?=\s+(?:you|u|i|we|someone|somebody)\b)/gi, 'can'],
  [/(?<![\w@.-])(?:chnage|chagne|cahnge|chaneg|chnge)(d|s)?(?![\w@.-])/gi, 'change$1'],
  [/(?<![\w@.-])(?:emial|emali|eamil)(s)?(?![\w@-]|\.\w)/gi, 'email$1'],
  [/(?<![\w@.-])(?:adress|addres|adresss|addresss)(?![\w@-]|\.\w)/gi, 'address'],
  [/(?<![\w@.-])(?:updte|upate|udpate)(?![\w@-]|\.\w)/gi, 'update'],
  // "the shelves ur handyman put up", "the tap u fixed": the company spoken to ("ur welcome" is "you're").
  [/\bu\b(?!['’.]|\s*[@&/])/g, 'you'],
  [/\bur\b(?!\s+(?:welcome|the best|a star|amazing|great|right|kidding|joking|so)\b)/g, 'your'],
];

export function expandShorthand(text: string): string {
  return SHORTHAND.reduce((t, [re, word]) => t.replace(re, word), text);
}
