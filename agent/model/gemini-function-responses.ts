/**
 * `@langchain/google-genai` 2.3.2 answers a turn of parallel function calls with one `user` content
 * per response; the live API wants ONE content carrying every response of that turn ("the number
 * of function response parts is equal to the number of function call parts", langchainjs #10342,
 * fixed upstream in #10452, not in a released 2.x). Until an upgrade carries the fix, the request is
 * mended here: consecutive contents that hold only function responses become one.
 */

interface Part {
  functionResponse?: unknown;
  [k: string]: unknown;
}
interface Content {
  role: string;
  parts: Part[];
}

const onlyResponses = (c: Content) => c.parts.length > 0 && c.parts.every((p) => p.functionResponse !== undefined);

export function coalesceFunctionResponses<C extends Content>(contents: C[]): C[] {
  const out: C[] = [];
  for (const c of contents) {
    const prev = out[out.length - 1];
    if (prev && prev.role === c.role && onlyResponses(prev) && onlyResponses(c)) {
      out[out.length - 1] = { ...prev, parts: [...prev.parts, ...c.parts] };
    } else out.push(c);
  }
  return out;
}

type RequestBuilder = (messages: unknown, options: unknown) => { contents: Content[] };

/**
 * Mend every request a chat model instance builds (streaming or not, and through `bindTools`,
 * which wraps the same instance). The builder is the library's own, private in its types.
 */
export function mendParallelFunctionResponses<M extends object>(model: M): M {
  const target = model as unknown as { _buildGenerateContentRequest?: RequestBuilder };
  const build = target._buildGenerateContentRequest;
  if (typeof build !== 'function') throw new Error('@langchain/google-genai changed: no request builder to mend');
  target._buildGenerateContentRequest = (messages, options) => {
    const request = build.call(model, messages, options);
    return { ...request, contents: coalesceFunctionResponses(request.contents) };
  };
  return model;
}
