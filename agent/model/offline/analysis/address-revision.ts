import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalEventOf, type PlanContext } from '../../../plan-context.js';
import { type AddressChange, extractAddress, unitSaid } from './entities.js';
import { stanceOfValue } from './evidence.js';
import { isRecord, normalize } from './text.js';

/*
 * An address given in this conversation, then completed in the next message: "oops forgot, its unit 5".
 * The unit belongs to the address just asked for (waiting for approval, or just approved), not to the one
 * on file, which may be none at all. A new request with the unit replaces the waiting one.
 */

const STREET_NUMBER = /^\s*(\d+[a-z]?)\b/i;

function asAddress(v: unknown): AddressChange | undefined {
  if (!isRecord(v)) return undefined;
  const { line1, unit, city, postal_code } = v;
  if (typeof line1 !== 'string' || typeof city !== 'string' || typeof postal_code !== 'string') return undefined;
  return { line1, city, postal_code, ...(typeof unit === 'string' && unit ? { unit } : {}) };
}

const addressOf = (args: unknown): AddressChange | undefined =>
  isRecord(args) && isRecord(args.changes) ? asAddress(args.changes.address) : undefined;

/**
 * The address an update_customer of this conversation asks for, the latest first: a request waiting for a
 * manager, else one proposed or carried out in the window. One refused or taken back is nobody's address.
 */
export function addressInDiscussion(messages: BaseMessage[], ctx: PlanContext): AddressChange | undefined {
  const waiting = ctx.pending.filter((p) => p.tool === 'update_customer' && addressOf(p.args)).at(-1);
  if (waiting) return addressOf(waiting.args);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const e = approvalEventOf(m);
    if (e?.tool === 'update_customer' && addressOf(e.args))
      return e.status === 'executed' ? addressOf(e.args) : undefined;
    if (AIMessage.isInstance(m)) {
      const call = (m.tool_calls ?? []).filter((c) => c.name === 'update_customer' && addressOf(c.args)).at(-1);
      if (call) return addressOf(call.args);
    }
  }
  return undefined;
}

/**
 * The address under discussion with the unit this message adds ("its unit 5", "forgot the apt, it's apt 2"),
 * when the message asks for it and gives no whole address of its own; a unit of another street is not its.
 */
export function revisedAddress(text: string, base: AddressChange | undefined): AddressChange | undefined {
  if (!base || extractAddress(text)?.ok) return undefined;
  const patch = unitSaid(text);
  if (!patch || stanceOfValue(text, patch.unit.split(' ').at(-1)!) !== 'request') return undefined;
  const numberOf = (line: string) => STREET_NUMBER.exec(line)?.[1]?.toLowerCase();
  if (patch.line1 && numberOf(patch.line1) !== numberOf(base.line1)) return undefined;
  if (normalize(base.unit ?? '') === normalize(patch.unit)) return undefined;
  return { ...base, unit: patch.unit };
}
