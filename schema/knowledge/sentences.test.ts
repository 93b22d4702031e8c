import { describe, expect, it } from 'vitest';
import { paragraphSentences, splitSentences } from './sentences.js';

describe('splitSentences', () => {
  it('keeps times, prices, web and email addresses inside their sentence', () => {
    expect(
      splitSentences(
        'We work Saturdays from 9:00 a.m. to 2:00 p.m. Visits start on the hour. ' +
          'See example.com or write to help@example.com for $74.50 refunds.',
      ),
    ).toEqual([
      'We work Saturdays from 9:00 a.m. to 2:00 p.m.',
      'Visits start on the hour.',
      'See example.com or write to help@example.com for $74.50 refunds.',
    ]);
  });

  it('does not end a sentence at an abbreviation or an initial followed by a capital', () => {
    expect(splitSentences('We take cards, e.g. Visa and Amex. Ask Dr. Lee or J. Smith. Done!')).toEqual([
      'We take cards, e.g. Visa and Amex.',
      'Ask Dr. Lee or J. Smith.',
      'Done!',
    ]);
  });

  it('ends sentences at question and exclamation marks and after closing quotes', () => {
    expect(splitSentences('Need help today? Call us. He said "no." Then he left (really.) Fine')).toEqual([
      'Need help today?',
      'Call us.',
      'He said "no."',
      'Then he left (really.)',
      'Fine',
    ]);
  });

  it('reads paragraphs separately', () => {
    expect(paragraphSentences('One. Two.\n\nThree at 8:00 a.m.\n  \nFour')).toEqual([
      ['One.', 'Two.'],
      ['Three at 8:00 a.m.'],
      ['Four'],
    ]);
  });
});

describe('splitSentences on customer messages', () => {
  it('keeps "Dec. 15" and "No. 4" in their sentence', () => {
    expect(splitSentences('Can you come on Dec. 15 at 10? I live at No. 4 Elm St. Thanks.')).toEqual([
      'Can you come on Dec. 15 at 10?',
      'I live at No. 4 Elm St. Thanks.',
    ]);
  });
});
