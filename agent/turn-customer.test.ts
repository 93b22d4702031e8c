import { describe, expect, it } from 'vitest';
import { TurnCustomers } from './turn-customer.js';

const ann = { id: 'cus_001', name: 'Ann', email: null, phone: null };

describe('the customer read with a message run’s lease', () => {
  it('is there for its thread and its customer while the run lasts, and gone after', async () => {
    const turns = new TurnCustomers();
    await turns.with('t1', ann, async () => {
      expect(turns.get('t1', 'cus_001')).toEqual(ann);
      // Another thread, or a state naming another customer, reads the table as before.
      expect(turns.get('t2', 'cus_001')).toBeUndefined();
      expect(turns.get('t1', 'cus_002')).toBeUndefined();
    });
    expect(turns.get('t1', 'cus_001')).toBeUndefined();
  });

  it('a conversation without a customer has none, and a failed run leaves nothing behind', async () => {
    const turns = new TurnCustomers();
    await turns.with('t1', null, async () => expect(turns.get('t1', null)).toBeNull());
    await expect(turns.with('t1', ann, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(turns.get('t1', 'cus_001')).toBeUndefined();
  });
});
