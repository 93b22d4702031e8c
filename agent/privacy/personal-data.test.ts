import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { approvalEventMessage } from '../plan-context.js';
import { currentTurn, mentionsRecord, touchesCustomerData, type RecordValues } from './personal-data.js';

const record: RecordValues = {
  emails: ['maria.gonzalez@example.com'],
  phones: ['5552013344'],
  addressLines: ['18 wharf st'],
  ids: ['bkg-1003', 'tkt-1001'],
};

describe('mentionsRecord', () => {
  it.each([
    'We have maria.gonzalez@example.com on file.',
    'Your email is MARIA.GONZALEZ@EXAMPLE.COM',
    'Call us from (555) 201-3344 and we will know it is you.',
    'your number 555.201.3344',
    'on file: +1 555 201 3344',
    'the number 5552013344',
    'We will come to 18 Wharf Street.',
    'We will come to 18 wharf st.',
    'Your booking BKG-1003 is confirmed.',
    'ticket tkt-1001 is open',
  ])('finds the record in %j', (text) => {
    expect(mentionsRecord(text, record)).toBe(true);
  });

  it.each([
    'A standard clean is $145 and takes 3 hours.',
    'We are open 8:00 AM to 6:00 PM, Monday to Saturday (555 is our area code).',
    'Call 555-201-0000 for emergencies.',
    'Wharf Street is in our service area.',
    'Booking BKG-10031 is someone else’s.',
    'Is there anything else I can help with?',
  ])('finds nothing in %j', (text) => {
    expect(mentionsRecord(text, record)).toBe(false);
  });
});

describe('touchesCustomerData', () => {
  const ask = new HumanMessage({ content: 'hi' });
  const tool = (name: string) => new ToolMessage({ content: '{}', tool_call_id: 'c1', name });

  it('a lookup, a proposal or an approval update in the turn: personal; the help centre alone: not', () => {
    expect(touchesCustomerData(currentTurn([ask, new AIMessage('answer')]))).toBe(false);
    expect(touchesCustomerData(currentTurn([ask, tool('search_knowledge_base'), new AIMessage('a')]))).toBe(false);
    expect(touchesCustomerData(currentTurn([ask, tool('lookup_customer'), new AIMessage('a')]))).toBe(true);
    expect(touchesCustomerData(currentTurn([ask, tool('update_customer')]))).toBe(true);
    const expired = approvalEventMessage({
      approval_id: 'a1',
      tool: 'update_customer',
      args: {},
      edited: false,
      status: 'expired',
    });
    expect(touchesCustomerData(currentTurn([ask, expired, new AIMessage('expired')]))).toBe(true);
  });

  it('only the current turn counts: an earlier lookup does not make a later answer personal', () => {
    const earlier = [new HumanMessage('my phone?'), tool('lookup_customer'), new AIMessage('here')];
    expect(touchesCustomerData(currentTurn([...earlier, ask, new AIMessage('hours: 8 to 6')]))).toBe(false);
  });
});
