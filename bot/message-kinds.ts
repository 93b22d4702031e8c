/**
 * Which Slack `message` events are a person writing to us. Plain messages have no subtype; two
 * subtypes are still a person's message: a thread reply also sent to the channel
 * (`thread_broadcast`) and a message with an attachment (`file_share`). Every other subtype is an
 * edit, a deletion, a join, a bot or similar, and is not answered.
 */
export const PERSON_SUBTYPES: ReadonlySet<string> = new Set(['thread_broadcast', 'file_share']);

export const isPersonMessage = (e: { type?: string; subtype?: string; bot_id?: string } | undefined): boolean =>
  e?.type === 'message' && !e.bot_id && (e.subtype === undefined || PERSON_SUBTYPES.has(e.subtype));

/** Said once we have answered the text of a message that came with an attachment. */
export const ATTACHMENT_NOTE = "(I can't open attachments, so I answered from your text only.)";
/** Said when a message is only an attachment. */
export const ATTACHMENT_ONLY = "I can't open attachments. Could you tell me in words what you need?";
