import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { planTurn, toAIMessage } from './planner.js';
import { isRecord } from './analysis/text.js';

export interface OfflinePlannerFields extends BaseChatModelParams {
  /** Names of the bound tools (set by bindTools); undefined means every tool may be called. */
  toolNames?: readonly string[];
  /** Fixed thread key for tool-call ids; by default the run's `configurable.thread_id`. */
  threadId?: string;
}

/** The name of a tool in any of the shapes bindTools accepts. */
export function toolNameOf(tool: BindToolsInput): string | undefined {
  if (!isRecord(tool)) return undefined;
  if (typeof tool.name === 'string') return tool.name;
  if (isRecord(tool.function) && typeof tool.function.name === 'string') return tool.function.name;
  return undefined;
}

export interface OfflinePlannerCallOptions extends BaseChatModelCallOptions {
  /** The conversation's thread, for tool-call ids; taken from `configurable.thread_id` by invoke. */
  offlineThreadId?: string;
}

function threadIdOf(config: { configurable?: Record<string, unknown> } | undefined): string | undefined {
  const id = config?.configurable?.thread_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The thread of the enclosing run (a LangGraph node's config), when async-local storage has one. */
function ambientThreadId(): string | undefined {
  try {
    return threadIdOf(
      AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: Record<string, unknown> } | undefined,
    );
  } catch {
    return undefined;
  }
}

/**
 * The deterministic stand-in for Gemini when no GOOGLE_API_KEY is set. It reads the PlanContext
 * from the system message and answers with one AIMessage (tool calls and/or text) tagged with
 * FALLBACK_METADATA, going through the very same graph as the real model.
 */
export class OfflinePlanner extends BaseChatModel<OfflinePlannerCallOptions> {
  readonly toolNames?: readonly string[];
  readonly threadId?: string;

  static override lc_name() {
    return 'OfflinePlanner';
  }

  constructor(fields: OfflinePlannerFields = {}) {
    super(fields);
    if (fields.toolNames) this.toolNames = [...fields.toolNames];
    if (fields.threadId !== undefined) this.threadId = fields.threadId;
  }

  /** Plans from the PlanContext the plan step attaches, never from the prompt's text (so none is rendered). */
  readsPlanContext = true;

  _llmType(): string {
    return 'offline-planner';
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<this['ParsedCallOptions']>) {
    const bound = new OfflinePlanner({
      toolNames: tools.map(toolNameOf).filter((n): n is string => Boolean(n)),
      ...(this.threadId !== undefined ? { threadId: this.threadId } : {}),
      callbacks: this.callbacks,
      tags: this.tags,
      metadata: this.metadata,
      verbose: this.verbose,
    });
    return bound.withConfig({ ...(kwargs ?? {}) });
  }

  /** Carries the run's `configurable.thread_id` (which call options drop) through to _generate. */
  override invoke(
    input: BaseLanguageModelInput,
    options?: Partial<OfflinePlannerCallOptions>,
  ): Promise<AIMessageChunk> {
    const threadId = options?.offlineThreadId ?? threadIdOf(options) ?? ambientThreadId();
    return super.invoke(input, threadId !== undefined ? { ...options, offlineThreadId: threadId } : options);
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const turn = planTurn(messages, this.toolNames ? { toolNames: this.toolNames } : {});
    const message = toAIMessage(turn, messages, this.threadId ?? options.offlineThreadId ?? ambientThreadId() ?? '');
    return { generations: [{ text: turn.content, message }] };
  }
}
