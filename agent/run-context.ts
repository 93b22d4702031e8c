import { AsyncLocalStorageProviderSingleton, _CONTEXT_VARIABLES_KEY } from '@langchain/core/singletons';

/*
 * Every runnable LangChain invokes (each graph node, each channel write, each route) is run inside
 * AsyncLocalStorage so that nested code (interrupt(), getConfig()) finds its config. Without a
 * LangSmith tracer, @langchain/core 1.4 still builds a full langsmith RunTree for each of them just
 * to carry that config (ids from crypto, a dotted order, environment lookups): 3–4% of a worker's
 * CPU in the bench's profile, for tracing that is off. This keeps the same store shape (the config
 * under `extra[lc:child_config]`, context variables carried over) in a plain object instead.
 *
 * Installed only when no LangSmith tracing variable is on (core/config `langSmithTracing`): with
 * LangSmith on, LangChain's own RunTree is what its tracer needs. Langfuse traces through callbacks
 * (agent/tracing.ts), which this does not touch. agent/run-context.test.ts checks the store shape
 * against the version pinned in package.json, and the graph tests that interrupt() still works.
 */

const LC_CHILD_KEY = Symbol.for('lc:child_config');

type Store = Record<PropertyKey, unknown> & { extra?: Record<PropertyKey, unknown> };
type Provider = typeof AsyncLocalStorageProviderSingleton;

let installed: Provider['runWithConfig'] | undefined;

export function useLightRunContext(): void {
  if (installed) return;
  const provider = AsyncLocalStorageProviderSingleton;
  installed = provider.runWithConfig;
  provider.runWithConfig = function runWithConfig<T>(
    this: Provider,
    config: unknown,
    callback: () => T,
    avoidCreatingRootRunTree?: boolean,
  ): T {
    const storage = this.getInstance();
    const previous = storage.getStore() as Store | undefined;
    let store: Store | undefined = avoidCreatingRootRunTree ? undefined : { extra: { [LC_CHILD_KEY]: config } };
    if (previous?.[_CONTEXT_VARIABLES_KEY] !== undefined) {
      store ??= {};
      store[_CONTEXT_VARIABLES_KEY] = previous[_CONTEXT_VARIABLES_KEY];
    }
    return storage.run(store, callback);
  } as Provider['runWithConfig'];
}

/** Back to LangChain's own (tests). */
export function restoreRunContext(): void {
  if (!installed) return;
  AsyncLocalStorageProviderSingleton.runWithConfig = installed;
  installed = undefined;
}
