import { normalize } from './text.js';
import type { Service } from './services.js';

/*
 * Two things a booking request can leave open that a booking must not guess: where the visit is (a relative's
 * home, a rental: not the address on the account), and, for an installation named by the thing it installs,
 * whether the customer wants a new one fitted or the old one repaired.
 */

/** People whose home a visit may be at. */
const WHOSE =
  '(?:mum|mom|mother|dad|father|parents|nan|nana|gran|grandma|grandmother|grandpa|grandfather|sister|brother|' +
  'son|daughter|aunt|uncle|cousin|friend|neighbou?r|in-laws|(?:mother|father|sister|brother)-in-law|' +
  'boyfriend|girlfriend|partner)';
const HOME_WORD = '(?:place|house|home|flat|apartment|condo|cottage|unit)';
/** Another property of the customer's than their home. */
const OTHER_PROPERTY = new RegExp(
  String.raw`\b(?:at|in) (?:(?:one|either|any) of )?(?:my|our|the) (?:rental(?: property| unit)?|` +
    'holiday (?:let|home|rental)|second home|other (?:place|house|home|property)|investment property|' +
    String.raw`cabin|airbnb|office)s?\b|` +
    // "at one of my units": one of several homes they let, not the one on the account.
    String.raw`\b(?:at|in) (?:one|either|any) of (?:my|our) ` +
    String.raw`(?:units|properties|places|flats|apartments|houses|rentals)\b`,
);
/** "at our Elm Street flat": a home of theirs named by its street, which is not the one on the account. */
const STREET_PROPERTY = new RegExp(
  String.raw`\b(?:at|in) (?:my|our) ((?:[a-z]+ ){1,2}(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|close|court)) ` +
    String.raw`(?:flat|house|place|apartment|property|unit|condo|rental)\b`,
);
const RELATIVE_HOME = new RegExp(
  String.raw`\b(?:at|to) (?:my|our) (${WHOSE})(?:'s|s'|s)?(?:\s+${HOME_WORD})?\b(?!\s+(?:is|was|said|told|asked))`,
);

/** The home the visit is at when the message puts it somewhere other than the customer's own ("your mum's"). */
export function visitElsewhere(text: string): string | undefined {
  const t = normalize(text);
  const relative = RELATIVE_HOME.exec(t);
  if (relative && /'s|s'|\b(?:place|house|home|flat|apartment|condo|cottage|unit)\b/.test(relative[0]))
    return `your ${relative[1]}'s home`;
  const street = STREET_PROPERTY.exec(t);
  if (street) return street[0].replace(/^(?:at|in) (?:my|our) /, 'your ');
  const property = OTHER_PROPERTY.exec(t);
  return property ? property[0].replace(/^(?:at|in) ((?:one|either|any) of )?(?:my|our|the) /, '$1your ') : undefined;
}

/** The thing at home has failed: "just died", "screen's blank", "stopped working". */
const FAILED = new RegExp(
  String.raw`\b(?:died|dead|broke|broken|stopped working|not working|isn'?t working|doesn'?t work|won'?t (?:turn on|` +
    String.raw`work|come on|start)|blank|faulty|on the fritz|acting up|gone out|went out|packed (?:in|up)|kaput)\b`,
);
/** Words that ask for a new one fitted, which is what an installation service is. */
const FIT_NEW = new RegExp(
  String.raw`\b(?:install\w*|new|replace\w*|swap\w*|upgrade\w*|put (?:in|up)|mount\w*|fit|fitted|bought|` +
    String.raw`got (?:a|an)|supply|supplied|ready to go)\b`,
);

/**
 * An installation service picked by the thing it installs ("the thermostat just died, can someone come?"):
 * the service fits a new one; the customer may want the old one fixed. Asked, not guessed.
 */
export function repairOrReplace(text: string, service: Service): boolean {
  const t = normalize(text);
  return service.category === 'install' && FAILED.test(t) && !FIT_NEW.test(t);
}

/** Words that ask for a look at something there, not for a new one: "look at", "check", "inspect". */
const INSPECT = new RegExp(
  String.raw`\b(?:(?:take|have) a (?:quick )?look at|look (?:at|over)|check (?:on |out )?|inspect\w*|` +
    String.raw`see what'?s (?:wrong|up|going on) with|diagnos\w*)\s*(?:my|our|the|a|this|that)\b`,
);

/**
 * An installation service picked by the thing it installs, asked for as a look at the one already there
 * ("can someone look at my fan"): the service fits a new one, so what the visit is for is asked.
 */
export function inspectionOfInstalled(text: string, service: Service): boolean {
  const t = normalize(text);
  return service.category === 'install' && INSPECT.test(t) && !FIT_NEW.test(t);
}
