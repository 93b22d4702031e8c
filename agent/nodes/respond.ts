import { randomUUID } from 'node:crypto';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import { loadServices } from '../deps.js';
import { describeCall } from '../describe.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { toolOutcomeMessage, toolOutcomeOf } from '../tool-outcome.js';
import { textOf } from '../window.js';

const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

const STEP_LIMIT_REPLY =
  "Sorry, I couldn't work that one out. Could you say it another way? " +
  "If you'd like, I can also open a ticket so someone from the team follows up.";

/** Produce the reply of this run, truthful about what is pending and what is done. */
export const respondNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const last = state.messages[state.messages.length - 1];
    if (AIMessage.isInstance(last) && !last.tool_calls?.length) return { replies: [textOf(last)] };

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
        replies: [STEP_LIMIT_REPLY],
      };
    }

    // After proposing: list what now waits for a manager.
    const trailing: ToolMessage[] = [];
    let i = state.messages.length - 1;
    for (; i >= 0 && ToolMessage.isInstance(state.messages[i]); i--) trailing.unshift(state.messages[i] as ToolMessage);
    const caller = state.messages[i];
    const ids = new Set(
      trailing.flatMap((m) => {
        const outcome = toolOutcomeOf(m);
        return outcome?.kind === 'pending_approval' ? [outcome.approval_id] : [];
      }),
    );
    const services = await loadServices(deps.pool);
    const lines = state.pending
      .filter((p) => ids.has(p.approval_id))
      .map(
        (p) => `• ${capitalize(describeCall({ name: p.tool, args: p.args }, { timeZone: deps.timeZone, services }))}`,
      );
    const intro = caller && AIMessage.isInstance(caller) ? textOf(caller).trim() : '';
    const reply = [
      intro,
      `I've sent ${lines.length > 1 ? 'these requests' : 'this request'} to our team for approval:`,
      ...lines,
      "Nothing has changed yet. I'll let you know here as soon as a manager decides.",
    ]
      .filter(Boolean)
      .join('\n');
    // The model's metadata travels with the reply it introduced (e.g. the offline planner's fallback label).
    const metadata = caller && AIMessage.isInstance(caller) ? caller.response_metadata : {};
    return {
      messages: [new AIMessage({ id: randomUUID(), content: reply, response_metadata: metadata })],
      replies: [reply],
    };
  };
