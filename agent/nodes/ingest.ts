import { randomUUID } from 'node:crypto';
import { HumanMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { DEFAULT_WINDOW, summarize, trimWindow } from '../window.js';

/** A new customer message starts a run: add it, keep the window bounded, reset per-run counters. */
export const ingestNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const human = new HumanMessage({ id: state.incomingId ?? randomUUID(), content: state.incoming ?? '' });
    const { dropped } = trimWindow([...state.messages, human], deps.windowSize ?? DEFAULT_WINDOW);
    return {
      messages: { drop: dropped.map((m) => m.id!).filter(Boolean), append: [human] },
      summary: dropped.length ? summarize(state.summary, dropped) : state.summary,
      incoming: null,
      incomingId: null,
      steps: 0,
      replies: null,
      deciding: null,
    };
  };
