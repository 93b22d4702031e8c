import { describe, expect, it } from 'vitest';
import { applyAddressPatch, extractAccessNote, extractAddressPatch } from './analysis/entities.js';
import { afterRecord, makeContext } from './testing.js';

/*
 * Writes that build on what is on file: a unit changed or added while the building stays, and a new
 * access detail for the staff notes. update_customer replaces an address or the notes whole, so the
 * record is looked up first and the update completed from it.
 */

const ON_FILE = {
  address: { line1: '8 Elm Street', unit: 'Apt 2', city: 'Riverton', postal_code: 'RV 2040' },
  notes: 'Parking in the back lot.',
};

describe('a unit changed or added, the rest of the address kept', () => {
  it.each([
    ['moved from unit 2 to unit 30 in the same building (8 elm st)', 'Unit 30'],
    ['we moved to apt 4 in the same building', 'Apt 4'],
    ['please add unit B to my address', 'Unit B'],
    ['our unit number is now 14, same address otherwise', 'Unit 14'],
    ["not unit 12 anymore, it's unit 7 - same building", 'Unit 7'],
    ['my address needs the flat on it: 8 Elm Street flat 3C', 'Flat 3C'],
  ])('%s', (text, unit) => {
    const patch = extractAddressPatch(text);
    expect(patch?.unit).toBe(unit);
    expect(applyAddressPatch(ON_FILE.address, patch!)).toEqual({ ...ON_FILE.address, unit });
  });

  it('is no patch for a full new address, a unit that is not one, or another street', () => {
    expect(extractAddressPatch('I moved to 12 Oak St, Apt 3, Springfield SP 1042')).toBeUndefined();
    expect(extractAddressPatch('the unit on the wall is broken')).toBeUndefined();
    expect(applyAddressPatch(ON_FILE.address, { unit: 'Unit 3', line1: '40 Birch Road' })).toBeUndefined();
    expect(applyAddressPatch(null, { unit: 'Unit 3' })).toBeUndefined();
  });
});

describe('a new access detail for the staff notes', () => {
  it.each([
    ['new key safe code is 3310 (still by the back door)', 'New key safe code is 3310 (still by the back door)'],
    ['and guest parking is bays 7-9 now, not 1-3', 'Guest parking is bays 7-9 now, not 1-3'],
    ['we park in bay 7 now', 'We park in bay 7 now'],
    ['the gate code changed to 4490', 'The gate code changed to 4490'],
    ['heads up, the alarm code is now 1234', 'The alarm code is now 1234'],
  ])('%s', (text, note) => expect(extractAccessNote(text)).toBe(note));

  it.each([
    'what is the gate code you have for me?',
    'my postal code is now MH 1048',
    'we park on the street now',
    'book a deep clean friday at 10, the new gate code is 5521',
  ])('not from: %s', (text) => expect(extractAccessNote(text)).toBeUndefined());
});

/** The planner's turn after it looked the customer up and the record came back. */
const converse = (text: string) => afterRecord(makeContext(), text, ON_FILE);

describe('the update completed from the record', () => {
  it.each([
    'moved from apt 2 to unit 9 in the same building',
    'same building, new unit: unit 9',
    'we are in unit 9 now, same address otherwise',
  ])('%s', (text) => {
    const second = converse(text);
    expect(second.calls).toEqual([
      {
        name: 'update_customer',
        args: { customer_id: 'cus_001', changes: { address: { ...ON_FILE.address, unit: 'Unit 9' } } },
      },
    ]);
  });

  it.each(['the new gate code is 5521', 'fyi the gate code is now 5521'])('adds to the notes: %s', (text) => {
    const changes = converse(text).calls[0]?.args.changes as Record<string, unknown>;
    expect(changes.notes).toMatch(/^Parking in the back lot\. .*gate code .*5521$/i);
  });

  it('a unit already on file is said so, not proposed', () => {
    const second = converse('same building, new unit: apt 2');
    expect(second.calls).toEqual([]);
    expect(second.content).toMatch(/already the address we have on file/);
  });
});
