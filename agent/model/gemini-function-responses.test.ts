import { describe, expect, it } from 'vitest';
import { coalesceFunctionResponses } from './gemini-function-responses.js';

const call = (name: string) => ({ functionCall: { name, args: {} } });
const response = (name: string) => ({ functionResponse: { name, response: {} } });

describe('coalesceFunctionResponses', () => {
  it('merges the responses of one turn of parallel calls into one content', () => {
    const out = coalesceFunctionResponses([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [call('a'), call('b')] },
      { role: 'user', parts: [response('a')] },
      { role: 'user', parts: [response('b')] },
    ]);
    expect(out).toHaveLength(3);
    expect(out[2]!.parts).toEqual([response('a'), response('b')]);
  });

  it('leaves a single response, text turns and separate call turns alone', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [call('a')] },
      { role: 'user', parts: [response('a')] },
      { role: 'model', parts: [call('b')] },
      { role: 'user', parts: [response('b')] },
      { role: 'user', parts: [{ text: 'and another thing' }] },
    ];
    expect(coalesceFunctionResponses(contents)).toEqual(contents);
  });
});
