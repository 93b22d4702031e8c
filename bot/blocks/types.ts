import type { types } from '@slack/bolt';

/** A Block Kit block as we build it (checked by Slack, and by the local workspace in tests). */
export type Block = types.KnownBlock;
export type ModalView = types.ModalView;
export type HomeView = types.HomeView;

export const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
export const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text });

/** Slack's plain_text limits (header 150, title/button 24/75): cut with an ellipsis. */
export const fit = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
