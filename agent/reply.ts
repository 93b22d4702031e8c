/**
 * One reply to the customer. `personal`: it carries their data (their record, their requests and
 * what became of them), so where other people can read the conversation it goes to them privately
 * (the delivery port decides where; the agent only says what the reply holds).
 */
export interface Reply {
  text: string;
  personal: boolean;
}

/**
 * Replies kept before the flag existed (an older checkpoint, an outbox row) carry no mark: they
 * count as personal, so an unknown reply is never posted where others can read it.
 */
export const replyOf = (r: Reply | string): Reply => (typeof r === 'string' ? { text: r, personal: true } : r);

/** Is a stored transcript row's reply personal? Rows without the mark count as personal (see replyOf). */
export const personalMeta = (meta: unknown): boolean =>
  !(typeof meta === 'object' && meta !== null && (meta as { personal?: unknown }).personal === false);
