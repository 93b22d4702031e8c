import type { BaseMessage } from '@langchain/core/messages';
import type { PlanContext } from '../../../plan-context.js';
import { BUSINESS } from '../../../../schema/business/profile.js';
import { lastExecuted } from '../conversation.js';
import type { Analysis } from '../analysis/analyze.js';
import { detectCues } from '../analysis/cues.js';
import { segments } from '../analysis/segments.js';
import { upcomingOf } from '../analysis/booking-change.js';
import { matchServices, serviceName, type Service } from '../analysis/services.js';
import { clip, contentWords, formatPrice, isRecord, normalize, stem } from '../analysis/text.js';
import { formatWhen } from '../analysis/when.js';
import { answerFromKb } from '../replies/knowledge.js';
import { emailBody, firstName } from '../replies/templates.js';
import { quotedAnswer, quotedAnswerEmail } from './email-answer.js';

/** "Email me the deep clean price and what's included": the service's facts, and what the help centre says of it. */
function serviceEmail(
  customer: NonNullable<PlanContext['customer']>,
  name: string,
  service: Service,
  ctx: PlanContext,
  alongside: readonly Article[] = [],
): { customer_id: string; subject: string; body: string } {
  const article = ctx.retrieved.find((r) => normalize(r.snippet).includes(normalize(service.name)));
  const hours = service.duration_minutes / 60;
  const others = alongside.filter((a) => a.id !== article?.id);
  return {
    customer_id: customer.id,
    subject: clip(`${service.name} at ${BUSINESS.shortName}: price and details`, 200),
    body: emailBody(
      name,
      `Here are the details of ${service.name} you asked for:`,
      [
        `Service: ${service.name}`,
        `Price: ${formatPrice(service.price_cents)} per visit`,
        `Time: about ${hours} hour${hours === 1 ? '' : 's'}`,
        ...(article ? ['', `From our help centre ("${article.title}"): ${clip(article.snippet, 800)}`] : []),
        ...others.flatMap((a) => ['', `You also asked about this ("${a.title}"): ${clip(a.snippet, 800)}`]),
      ],
      'When you would like to book, just let us know in Slack.',
    ),
  };
}

type Article = PlanContext['retrieved'][number];

/** The items of a list asked for in one email: "your saturday hours + what's included in a standard clean". */
const LIST_JOIN = /\s*(?:\+|&|\band\b)\s*/i;

/** Help-centre articles the email is also asked to carry, each named by an item of the list besides the service. */
function alsoAsked(text: string, service: Service, ctx: PlanContext): Article[] {
  const items = emailAsk(text).split(LIST_JOIN);
  if (items.length < 2) return [];
  const others = items.filter((i) => !matchServices(i, ctx.services).matches.some((m) => m.id === service.id));
  return [...new Set(others.map((i) => articleAsked(i, ctx)).filter((a): a is Article => a !== undefined))];
}

/** The part of the message that asks for the email (the whole message when no part alone does). */
const emailAsk = (text: string): string => segments(text).find((s) => detectCues(s).sendEmail) ?? text;

/**
 * "email me your refund policy", "email me the install prices": the help-centre article that answers
 * what the part of the message asking for the email names, when one does.
 */
function articleAsked(text: string, ctx: PlanContext): Article | undefined {
  const asked = emailAsk(text);
  const answer = answerFromKb(asked.replace(EMAIL_WORDS, ' '), ctx);
  const article = answer ? ctx.retrieved.find((r) => r.id === answer.articleId) : undefined;
  // "email me the details" names no topic: an article is sent only when the request names what its title is about.
  const words = new Set(topicWords(asked));
  return article && topicWords(article.title).some((w) => words.has(w)) ? article : undefined;
}

/**
 * How the email is asked for ("email me", "send it to my inbox", "by email"): the request, not its topic. Left
 * in, the article about email addresses would answer every request sent by email.
 */
const EMAIL_WORDS = new RegExp(
  [
    String.raw`\b(?:e-?mail|mail|send|forward)(?:\s+(?:it|that|them|this))?` +
      String.raw`(?:\s+(?:over|across))?(?:\s+to)?\s+(?:me|us)\b`,
    String.raw`\b(?:by|via|in an?|an?)\s+e-?mail\b`,
    String.raw`\b(?:my|our)\s+(?:e-?mail|inbox)\b`,
  ].join('|'),
  'gi',
);

/** Words of an email request that say nothing of its topic ("email me the details"), stemmed as topics are. */
const REQUEST_WORDS = new Set(['email', 'mail', 'send', 'details', 'info', 'information', 'copy'].map(stem));

/** The stemmed words a topic is named by ("Refunds" and "refund policy" share "refund"). */
const topicWords = (text: string): string[] => [...contentWords(text, 4)].filter((w) => !REQUEST_WORDS.has(w));

function articleEmail(
  customer: NonNullable<PlanContext['customer']>,
  name: string,
  article: Article,
): { customer_id: string; subject: string; body: string } {
  return {
    customer_id: customer.id,
    subject: clip(`${article.title} (${BUSINESS.shortName})`, 200),
    body: emailBody(
      name,
      `Here is what our help centre says in "${article.title}", as you asked:`,
      [clip(article.snippet, 1500)],
      'If you have any questions, just let us know in Slack.',
    ),
  };
}

/** "the details of my cleaning appointment": a booking they have, which a lookup finds before it is emailed. */
const OWN_BOOKING_DETAILS = new RegExp(
  String.raw`\b(?:my|our)\s+(?:[a-z-]+\s+){0,3}?(?:appointment|booking|visit|reservation)s?\b`,
);

/** The email of a booking on file, once the lookup asked for by `planEmail` shows it: undefined when unclear which. */
export function bookingEmailAfterLookup(
  text: string,
  lookup: unknown,
  ctx: PlanContext,
): { customer_id: string; subject: string; body: string } | undefined {
  const customer = ctx.customer;
  const bookings = upcomingOf(lookup) ?? [];
  if (!customer || !bookings.length) return undefined;
  const named = matchServices(text, ctx.services).matches;
  const ofService = named.length ? bookings.filter((b) => named.some((s) => s.id === b.service_id)) : bookings;
  if (ofService.length !== 1) return undefined;
  const b = ofService[0]!;
  const s = ctx.services.find((x) => x.id === b.service_id);
  const when = formatWhen(b.starts_at, ctx.timeZone);
  return {
    customer_id: customer.id,
    subject: clip(`Your ${BUSINESS.shortName} booking: ${b.service_name} on ${when}`, 200),
    body: emailBody(
      firstName(ctx),
      'Here are the details of your booking:',
      [
        `Service: ${b.service_name}`,
        `When: ${when}`,
        ...(s ? [`Price: ${formatPrice(b.price_cents ?? s.price_cents)}`] : []),
        `Booking: ${b.id}`,
        'Status: Confirmed',
      ],
      'If anything needs to change, just let us know in Slack.',
    ),
  };
}

/** The email the customer asked for: about the booking just requested, the one discussed, or the last ticket. */
export function planEmail(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
  customer: NonNullable<PlanContext['customer']>,
  booking: { service: Service | undefined; serviceId: string; start: string } | undefined,
  emailChanging: boolean,
): { args?: { customer_id: string; subject: string; body: string }; note?: string; lookup?: true } {
  if (!customer.email && !emailChanging) {
    return {
      note:
        "We don't have an email address on file for you yet, so I can't email you. " +
        'If you tell me your email address, I can ask to add it to your account.',
    };
  }
  if (emailChanging) {
    return { note: "Once your new email address is approved, just ask and I'll email you the details." };
  }
  const name = firstName(ctx);
  const tz = ctx.timeZone;
  const bookingFacts = (serviceId: string, start: string, status: string, bookingId?: string) => {
    const s = ctx.services.find((x) => x.id === serviceId);
    return [
      `Service: ${s?.name ?? serviceName(ctx.services, serviceId)}`,
      `When: ${formatWhen(start, tz)}`,
      ...(s ? [`Price: ${formatPrice(s.price_cents)}`] : []),
      ...(bookingId ? [`Booking: ${bookingId}`] : []),
      `Status: ${status}`,
    ];
  };
  const REQUESTED = 'Requested. Our team reviews every booking request and will confirm it shortly.';
  if (booking) {
    const svc = serviceName(ctx.services, booking.serviceId);
    return {
      args: {
        customer_id: customer.id,
        subject: clip(`Your ${BUSINESS.shortName} booking request: ${svc} on ${formatWhen(booking.start, tz)}`, 200),
        body: emailBody(
          name,
          'Thanks for your booking request. Here are the details:',
          bookingFacts(booking.serviceId, booking.start, REQUESTED),
          'If anything needs to change, just let us know in Slack.',
        ),
      },
    };
  }
  // "email me that" right after a help-centre answer: that answer, whatever else the conversation holds.
  const quoted = quotedAnswer(messages, a.text);
  if (quoted.length) return { args: quotedAnswerEmail(customer.id, name, quoted) };
  const base = a.base;
  if (base && ['pending', 'proposed', 'executed', 'on_file'].includes(base.status)) {
    const confirmed = base.status === 'executed' || base.status === 'on_file';
    const svc = serviceName(ctx.services, base.service_id);
    return {
      args: {
        customer_id: customer.id,
        subject: clip(
          `Your ${BUSINESS.shortName} booking ${confirmed ? 'confirmation' : 'request'}: ` +
            `${svc} on ${formatWhen(base.start_time, tz)}`,
          200,
        ),
        body: emailBody(
          name,
          confirmed
            ? 'Your visit is booked. Here are the details:'
            : 'Thanks for your booking request. Here are the details:',
          bookingFacts(base.service_id, base.start_time, confirmed ? 'Confirmed' : REQUESTED, base.booking_id),
          'If anything needs to change, just let us know in Slack.',
        ),
      },
    };
  }
  const ticket = lastExecuted(messages, 'create_ticket');
  const tr = ticket && isRecord(ticket.result) && isRecord(ticket.result.ticket) ? ticket.result.ticket : undefined;
  if (ticket && tr) {
    return {
      args: {
        customer_id: customer.id,
        subject: clip(`Your ${BUSINESS.shortName} support ticket ${String(tr.id ?? '')}`.trim(), 200),
        body: emailBody(
          name,
          "We've opened a support ticket for you. Here are the details:",
          [
            `Ticket: ${String(tr.id ?? '')}`,
            `Subject: ${String(tr.subject ?? ticket.args.subject ?? '')}`,
            `Priority: ${String(tr.priority ?? ticket.args.priority ?? '')}`,
          ],
          'Our team will follow up with you soon.',
        ),
      },
    };
  }
  if (a.bookingWanted || a.rescheduleWanted) {
    return { note: "Once we've settled the booking details, I can email you the confirmation." };
  }
  // The part asking for the email says what it should carry: "email me the before-a-repair stuff, he'll be
  // home for the drywall guy" wants the article, the service being only why; a service named in that part wins.
  const service = a.services.matches.length === 1 ? a.services.matches[0]! : undefined;
  const askedService =
    service && matchServices(emailAsk(a.text), ctx.services).matches.some((s) => s.id === service.id);
  const article = askedService ? undefined : articleAsked(a.text, ctx);
  if (article) return { args: articleEmail(customer, name, article) };
  // "send me the details of my cleaning appointment": the booking they have is looked up first.
  if (OWN_BOOKING_DETAILS.test(normalize(emailAsk(a.text)))) return { lookup: true };
  if (service) return { args: serviceEmail(customer, name, service, ctx, alsoAsked(a.text, service, ctx)) };
  return {
    note:
      'What would you like me to email you? ' +
      "I can send the details of a booking once we've set one up, or of a ticket we've opened.",
  };
}
