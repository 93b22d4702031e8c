import { mrkdwn, type Block } from './types.js';

/** One "*Label*\nvalue" field of a section (value already escaped mrkdwn). */
export const field = (label: string, value: string) => mrkdwn(`*${label}*\n${value}`);

/** Fields in sections of at most ten, Slack's limit per section. */
export function sectionsOfFields(fields: ReturnType<typeof mrkdwn>[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < fields.length; i += 10) out.push({ type: 'section', fields: fields.slice(i, i + 10) });
  return out;
}
