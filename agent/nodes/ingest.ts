import { randomUUID } from 'node:crypto';
import { HumanMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import { mergeMessages, type AgentStateType, type AgentUpdate } from '../state.js';
import { DEFAULT_WINDOW, summarize, trimWindow } from '../window.js';
import { retrieveFor } from './retrieve.js';

/**
 * A new customer message starts a run: add it, keep the window bounded, reset per-run counters,
 * and search the help centre for it. One node, not two: every graph step is a checkpoint, and
 * nothing here has an effect a repeat could double (the search is read-only).
 */
export const ingestNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const human = new HumanMessage({ id: state.incomingId ?? randomUUID(), content: state.incoming ?? '' });
    const { dropped } = trimWindow([...state.messages, human], deps.windowSize ?? DEFAULT_WINDOW);
    const messages = { drop: dropped.map((m) => m.id!).filter(Boolean), append: [human] };
    const retrieved = await retrieveFor(deps, { ...state, messages: mergeMessages(state.messages, messages) });
    return {
      messages,
      summary: dropped.length ? summarize(state.summary, dropped) : state.summary,
      incoming: null,
      incomingId: null,
      steps: 0,
      replies: null,
      deciding: null,
      retrieved,
    };
  };
