import type { OfflineMeta, Offer } from '../conversation.js';
import { INJECTION_NOTE, proposalText } from '../replies/templates.js';

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One planning step: the reply text and the tool calls (empty for a plain answer). */
export interface PlannedTurn {
  content: string;
  calls: PlannedCall[];
  meta?: OfflineMeta;
}

/** The notes and offer of the assistant message at `index`, when they can be recovered. */
export type RecoverMeta = (index: number) => OfflineMeta | undefined;

export const say = (content: string, meta?: OfflineMeta): PlannedTurn => ({
  content,
  calls: [],
  ...(meta ? { meta } : {}),
});

export function propose(calls: PlannedCall[], notes: string[], injection = false, offer?: Offer): PlannedTurn {
  const text = [proposalText(calls), injection ? INJECTION_NOTE : '', ...notes].filter(Boolean).join('\n\n');
  const meta: OfflineMeta = {};
  if (notes.length) meta.notes = notes;
  if (offer) meta.offer = offer;
  return { content: text, calls, ...(Object.keys(meta).length ? { meta } : {}) };
}
