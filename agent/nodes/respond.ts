import { randomUUID } from 'node:crypto';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { Approval } from '../approvals/ledger.js';
import type { AgentDeps } from '../deps.js';
import { loadServices } from '../deps.js';
import { describeCall } from '../describe.js';
import { currentTurn, mentionsRecord, recordValues, touchesCustomerData } from '../privacy/personal-data.js';
import type { Reply } from '../reply.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { toolOutcomeMessage, toolOutcomeOf } from '../tool-outcome.js';
import { textOf } from '../window.js';

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

const STEP_LIMIT_REPLY =
  "Sorry, I couldn't work that one out. Could you say it another way? " +
  "If you'd like, I can also open a ticket so someone from the team follows up.";

type Describe = (a: Pick<Approval, 'tool' | 'args'>) => string;

/**
 * Produce the reply of this run, truthful about what is pending and what is done. What still waits
 * for a manager is read from the ledger and written here, not by the model, so every reply in a
 * thread with pending requests says which ones (and a proposal that replaced one says so).
 */
export const respondNode =
  (deps: AgentDeps, known: { waiting?: Approval[] } = {}) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const services = await loadServices(deps.pool);
    const describe: Describe = (a) =>
      describeCall({ name: a.tool, args: a.args }, { timeZone: deps.timeZone, services });
    const waiting = inConversationOrder(state, known.waiting ?? (await pendingOf(deps, state)));
    const finish = (text: string) => markPersonal(deps, state, text, waiting.length > 0);

    const last = state.messages[state.messages.length - 1];
    if (AIMessage.isInstance(last) && !last.tool_calls?.length) {
      // The model's own message stays as it said it; the customer's copy ends with what waits.
      return { replies: [await finish(withWaiting(textOf(last), waiting, describe))] };
    }

    if (AIMessage.isInstance(last)) {
      // The step bound stopped a model that kept calling tools: answer every open call so the
      // conversation stays well-formed, and say so.
      const closes = (last.tool_calls ?? []).map((c) =>
        toolOutcomeMessage(c.id!, c.name, {
          kind: 'error',
          error: { code: 'step_limit', message: 'Not run: too many steps in one turn.' },
        }),
      );
      return {
        messages: [...closes, new AIMessage({ id: randomUUID(), content: STEP_LIMIT_REPLY })],
        replies: [await finish(withWaiting(STEP_LIMIT_REPLY, waiting, describe))],
      };
    }

    // After proposing: what this turn sent, what it replaced, and what else still waits.
    const trailing: ToolMessage[] = [];
    let i = state.messages.length - 1;
    for (; i >= 0 && ToolMessage.isInstance(state.messages[i]); i--) trailing.unshift(state.messages[i] as ToolMessage);
    const caller = state.messages[i];
    const ids = new Set<string>();
    const replaced = new Set<string>();
    for (const m of trailing) {
      const outcome = toolOutcomeOf(m);
      if (outcome?.kind !== 'pending_approval') continue;
      ids.add(outcome.approval_id);
      for (const r of outcome.replaces ?? []) replaced.add(r);
    }
    const sent: Pick<Approval, 'tool' | 'args'>[] = waiting.filter((a) => ids.has(a.id));
    // The graph's own list when the ledger has nothing of this turn pending any more (decided already).
    if (!sent.length) sent.push(...state.pending.filter((p) => ids.has(p.approval_id)));
    const earlier = (
      await Promise.all([...replaced].filter((id) => !ids.has(id)).map((id) => deps.ledger.get(id)))
    ).filter((a): a is Approval => a !== undefined);
    const others = waiting.filter((a) => !ids.has(a.id));
    const intro = caller && AIMessage.isInstance(caller) ? textOf(caller).trim() : '';
    const reply = [
      intro,
      `I've sent ${sent.length > 1 ? 'these requests' : 'this request'} to our team for approval:`,
      ...bullets(sent, describe),
      earlier.length
        ? `This replaces your earlier ${earlier.length > 1 ? 'requests' : 'request'} to ` +
          `${joinList(earlier.map(describe))}.`
        : '',
      ...(others.length ? ['Also still waiting for a manager:', ...bullets(others, describe)] : []),
      "Nothing has changed yet. I'll let you know here as soon as a manager decides.",
    ]
      .filter(Boolean)
      .join('\n');
    // The model's metadata travels with the reply it introduced (e.g. the offline planner's fallback label).
    const metadata = caller && AIMessage.isInstance(caller) ? caller.response_metadata : {};
    return {
      messages: [new AIMessage({ id: randomUUID(), content: reply, response_metadata: metadata })],
      replies: [await finish(reply)],
    };
  };

/** The thread's pending approvals, from the ledger. */
const pendingOf = (deps: AgentDeps, state: AgentStateType): Promise<Approval[]> =>
  deps.ledger.list({ threadId: state.threadId, status: 'pending' });

/** Pending approvals in the order the conversation proposed them. */
function inConversationOrder(state: AgentStateType, rows: Approval[]): Approval[] {
  const order = new Map(state.pending.map((p, i) => [p.approval_id, i]));
  const at = (a: Approval) => order.get(a.id) ?? Number.MAX_SAFE_INTEGER;
  return rows.sort((a, b) => at(a) - at(b) || a.created_at.getTime() - b.created_at.getTime());
}

const bullets = (items: Pick<Approval, 'tool' | 'args'>[], describe: Describe) =>
  items.map((a) => `• ${capitalize(describe(a))}`);

const joinList = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The reply, then what still waits for a manager, unless the reply already names every one of them. */
function withWaiting(text: string, waiting: Approval[], describe: Describe): string {
  if (!waiting.length) return text;
  const lower = text.toLowerCase();
  if (waiting.every((a) => lower.includes(describe(a).toLowerCase()))) return text;
  return [text.trimEnd(), ['Still waiting for a manager:', ...bullets(waiting, describe)].join('\n')]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Personal when the turn read or changed the customer's data, when the reply speaks of their
 * pending requests, or when its words show a value of their record. A visitor with no record has
 * nothing to keep private.
 */
async function markPersonal(deps: AgentDeps, state: AgentStateType, text: string, namesRequests: boolean) {
  const reply = (personal: boolean): Reply => ({ text, personal });
  if (!state.customerId) return reply(false);
  if (namesRequests || touchesCustomerData(currentTurn(state.messages))) return reply(true);
  const record = await recordValues(deps.pool, state.customerId);
  return reply(record !== undefined && mentionsRecord(text, record));
}
