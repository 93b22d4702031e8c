import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { RunnableLambda } from '@langchain/core/runnables';
import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreRunContext, useLightRunContext } from './run-context.js';

const State = Annotation.Root({ answer: Annotation<string>() });

async function interruptAndResume(): Promise<string> {
  const graph = new StateGraph(State)
    .addNode('ask', (_s, config) => {
      // interrupt() and the config both come from AsyncLocalStorage.
      expect(config.configurable?.thread_id).toBe('t1');
      return { answer: interrupt<string, string>('which?') };
    })
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: 't1' } };
  const first = await graph.invoke({ answer: '' }, cfg);
  expect((first as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value).toBe('which?');
  const done = await graph.invoke(new Command({ resume: 'this one' }), cfg);
  return done.answer;
}

/** What a runnable sees in AsyncLocalStorage while it runs. */
async function storeSeenInside(): Promise<unknown> {
  let seen: unknown;
  await RunnableLambda.from(() => {
    seen = AsyncLocalStorageProviderSingleton.getInstance().getStore();
    return 1;
  }).invoke(1, { tags: ['x'] });
  return seen;
}

// langsmith is LangChain's dependency, not ours: tell its RunTree by name.
const isRunTree = (x: unknown) => (x as object | undefined)?.constructor?.name === 'RunTree';

describe('the light run context', () => {
  afterEach(() => restoreRunContext());

  it("is what LangChain's own would build, minus the RunTree (the pinned version builds one)", async () => {
    expect(isRunTree(await storeSeenInside())).toBe(true);
    useLightRunContext();
    const seen = await storeSeenInside();
    expect(isRunTree(seen)).toBe(false);
    expect(AsyncLocalStorageProviderSingleton.getRunnableConfig()).toBeUndefined();
    expect(seen).toMatchObject({
      extra: { [Symbol.for('lc:child_config')]: expect.objectContaining({ tags: ['x'] }) },
    });
  });

  it('keeps interrupt() and resume working', async () => {
    expect(await interruptAndResume()).toBe('this one');
    useLightRunContext();
    expect(await interruptAndResume()).toBe('this one');
  });
});
