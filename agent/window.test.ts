import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { call, propose, say } from './testing/fixtures.js';
import { approvalEventMessage } from './plan-context.js';
import { toolOutcomeMessage } from './tool-outcome.js';
import { REQUEST_MAX_CHARS, REQUEST_MAX_MESSAGES, requestMessages, requestText } from './window.js';

const customer = (text: string) => new HumanMessage({ content: text });
const pendingOutcome = (id: string) =>
  toolOutcomeMessage(id, 'book_slot', { kind: 'pending_approval', approval_id: 'a1', expires_at: 'x' });

describe('the whole request: customer messages since the conversation last closed one', () => {
  it('a clarifying question keeps the request open: both halves are on the card', () => {
    const proposal = propose(call('reschedule_booking', { booking_id: 'BKG-1' }));
    const messages: BaseMessage[] = [
      customer('hi, what are your hours?'),
      say('We are open Mon-Fri 8-18 and Saturday 9-14.'),
      customer('I have a deep clean booked'),
      customer('can you move it'),
      say('Sure! Which day would you like instead?'),
      customer('wednesday please'),
      proposal,
    ];
    expect(requestMessages(messages)).toEqual(['I have a deep clean booked', 'can you move it', 'wednesday please']);
    expect(requestText(messages)).toBe('I have a deep clean booked\n\ncan you move it\n\nwednesday please');
  });

  it('a request sent to a manager closes it: the next one starts after it', () => {
    const first = propose(call('book_slot', {}));
    const messages: BaseMessage[] = [
      customer('book me a deep clean tuesday'),
      first,
      pendingOutcome(first.tool_calls![0]!.id!),
      say("I've sent this request to our team for approval. Is there anything else?"),
      customer('also change my phone to 555 0100'),
    ];
    expect(requestMessages(messages)).toEqual(['also change my phone to 555 0100']);
  });

  it('a refused proposal (slot taken) does not close it: the alternative the customer picks joins it', () => {
    const refused = propose(call('book_slot', {}));
    const messages: BaseMessage[] = [
      customer('book a deep clean tuesday at 10'),
      refused,
      toolOutcomeMessage(refused.tool_calls![0]!.id!, 'book_slot', {
        kind: 'error',
        error: { code: 'slot_unavailable', message: 'taken' },
      }),
      say('That time is taken. Would 11:00 or 14:00 work?'),
      customer('11 is fine'),
    ];
    expect(requestMessages(messages)).toEqual(['book a deep clean tuesday at 10', '11 is fine']);
  });

  it('an approval outcome closes it', () => {
    const messages: BaseMessage[] = [
      customer('cancel my visit'),
      approvalEventMessage({ approval_id: 'a1', tool: 'cancel_booking', args: {}, status: 'executed', edited: false }),
      customer('thanks! now book a window cleaning'),
    ];
    expect(requestMessages(messages)).toEqual(['thanks! now book a window cleaning']);
  });

  it('ignores what comes after the latest customer message (this turn’s own tool calls and results)', () => {
    const lookup = propose(call('lookup_customer', {}));
    const messages: BaseMessage[] = [
      customer('move my deep clean'),
      say('Which day?'),
      customer('wednesday'),
      lookup,
      toolOutcomeMessage(lookup.tool_calls![0]!.id!, 'lookup_customer', { kind: 'result', result: {} }),
      new AIMessage({ content: 'Let me check.' }),
    ];
    expect(requestMessages(messages)).toEqual(['move my deep clean', 'wednesday']);
  });

  it('keeps the newest messages within the caps and says that earlier ones were left out', () => {
    const many = Array.from({ length: REQUEST_MAX_MESSAGES + 5 }, (_, i) => customer(`message ${i}`));
    const kept = requestMessages(many);
    expect(kept).toHaveLength(REQUEST_MAX_MESSAGES);
    expect(kept.at(-1)).toBe(`message ${REQUEST_MAX_MESSAGES + 4}`);
    expect(requestText(many).startsWith('…\n\nmessage 5\n\n')).toBe(true);

    const long = [customer('x'.repeat(REQUEST_MAX_CHARS)), customer('y'.repeat(REQUEST_MAX_CHARS * 2))];
    const text = requestText(long);
    expect(text.length).toBeLessThanOrEqual(REQUEST_MAX_CHARS + 3);
    expect(text.startsWith('…\n\nyyy')).toBe(true);
  });

  it('no customer message: nothing', () => {
    expect(requestText([say('hello')])).toBe('');
  });
});
