import { describe, expect, it } from 'vitest';
import { validateBlocks, validateMessageContent, validateView } from './block-kit.js';

const section = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
  ...extra,
});
const button = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'button',
  action_id: 'a',
  text: { type: 'plain_text', text },
  ...extra,
});
const plain = (text: string) => ({ type: 'plain_text', text });

describe('message blocks', () => {
  it('accepts the approval-card subset', () => {
    const blocks = [
      { type: 'header', text: plain('Refund') },
      section('*hi*', { block_id: 's', accessory: button('Go', { style: 'primary', value: 'v' }) }),
      { type: 'section', fields: [{ type: 'mrkdwn', text: '*A*' }, plain('B')] },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: 'ctx' },
          { type: 'image', image_url: 'https://x/y.png', alt_text: 'y' },
        ],
      },
      { type: 'divider' },
      {
        type: 'actions',
        elements: [
          button('Approve', { action_id: 'approve', style: 'primary' }),
          button('Reject', { action_id: 'reject', style: 'danger' }),
          {
            type: 'static_select',
            action_id: 'pick',
            options: [{ text: plain('One'), value: '1' }],
            initial_option: { text: plain('One'), value: '1' },
          },
        ],
      },
    ];
    expect(validateBlocks(blocks, 'message')).toEqual([]);
  });

  it('rejects 51 blocks in a message but allows 100 in a modal', () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(validateBlocks(many(51), 'message')).toEqual(['must be less than 51 items [json-pointer:/blocks]']);
    expect(validateBlocks(many(50), 'message')).toEqual([]);
    expect(validateBlocks(many(100), 'modal')).toEqual([]);
    expect(validateBlocks(many(101), 'home')).toHaveLength(1);
  });

  it('enforces text limits with json pointers', () => {
    expect(validateBlocks([{ type: 'actions', elements: [button('x'.repeat(76))] }], 'message')).toEqual([
      'must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
    ]);
    expect(validateBlocks([section('x'.repeat(3001))], 'message')).toEqual([
      'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(validateBlocks([section('x'.repeat(3000))], 'message')).toEqual([]);
    expect(validateBlocks([{ type: 'header', text: plain('h'.repeat(151)) }], 'message')).toHaveLength(1);
    expect(validateBlocks([{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }], 'message')).toEqual([
      'must be a plain_text text object [json-pointer:/blocks/0/text/type]',
    ]);
    expect(validateBlocks([section('')], 'message')).toEqual([
      'must be more than 0 characters [json-pointer:/blocks/0/text/text]',
    ]);
    const fields = Array.from({ length: 11 }, () => plain('f'));
    expect(validateBlocks([{ type: 'section', fields }], 'message')).toEqual([
      'must be less than 11 items [json-pointer:/blocks/0/fields]',
    ]);
    expect(validateBlocks([{ type: 'section', fields: [plain('f'.repeat(2001))] }], 'message')).toHaveLength(1);
    expect(
      validateBlocks([{ type: 'actions', elements: [button('ok', { value: 'v'.repeat(2001) })] }], 'message'),
    ).toHaveLength(1);
    expect(
      validateBlocks([{ type: 'actions', elements: [button('ok', { action_id: 'a'.repeat(256) })] }], 'message'),
    ).toHaveLength(1);
    expect(validateBlocks([{ type: 'divider', block_id: 'b'.repeat(256) }], 'message')).toHaveLength(1);
  });

  it('rejects duplicate block_id and duplicate action_id within a block', () => {
    expect(validateBlocks([{ type: 'divider', block_id: 'x' }, section('a', { block_id: 'x' })], 'message')).toEqual([
      "duplicate block_id 'x' [json-pointer:/blocks/1/block_id]",
    ]);
    expect(validateBlocks([{ type: 'actions', elements: [button('a'), button('b')] }], 'message')).toEqual([
      "duplicate action_id 'a' within block [json-pointer:/blocks/0/elements/1/action_id]",
    ]);
  });

  it('rejects unknown properties, bad styles and unsupported types', () => {
    expect(validateBlocks([{ type: 'divider', colour: 'red' }], 'message')).toEqual([
      "unsupported property 'colour' [json-pointer:/blocks/0/colour]",
    ]);
    expect(validateBlocks([{ type: 'actions', elements: [button('a', { style: 'green' })] }], 'message')).toHaveLength(
      1,
    );
    expect(validateBlocks([{ type: 'video' }], 'message')[0]).toMatch(/unsupported block type 'video'/);
    expect(
      validateBlocks([{ type: 'actions', elements: [{ type: 'plain_text_input', action_id: 'x' }] }], 'message')[0],
    ).toMatch(/not allowed here/);
    expect(validateBlocks([{ type: 'section' }], 'message')).toEqual([
      'must provide text or fields [json-pointer:/blocks/0]',
    ]);
    expect(validateBlocks({}, 'message')).toEqual(['must be an array [json-pointer:/blocks]']);
  });

  it('checks select options and initial_option', () => {
    const select = (extra: Record<string, unknown>) => [
      { type: 'actions', elements: [{ type: 'static_select', action_id: 's', ...extra }] },
    ];
    expect(validateBlocks(select({ options: [] }), 'message')).toHaveLength(1);
    expect(
      validateBlocks(
        select({ options: [{ text: plain('A'), value: 'a' }], initial_option: { text: plain('B'), value: 'b' } }),
        'message',
      )[0],
    ).toMatch(/initial_option/);
    expect(validateBlocks(select({ options: [{ text: plain('A'.repeat(76)), value: 'a' }] }), 'message')).toHaveLength(
      1,
    );
  });
});

describe('views', () => {
  const modal = (extra: Record<string, unknown> = {}) => ({
    type: 'modal',
    title: plain('Edit'),
    submit: plain('Save'),
    blocks: [
      {
        type: 'input',
        block_id: 'r',
        label: plain('Reason'),
        element: { type: 'plain_text_input', action_id: 'v', multiline: true, max_length: 500 },
      },
      {
        type: 'input',
        block_id: 'd',
        optional: true,
        label: plain('Date'),
        element: { type: 'datepicker', action_id: 'v', initial_date: '2024-05-01' },
      },
      {
        type: 'input',
        block_id: 't',
        label: plain('Time'),
        element: { type: 'timepicker', action_id: 'v', initial_time: '09:30' },
      },
      {
        type: 'input',
        block_id: 'n',
        label: plain('N'),
        dispatch_action: false,
        element: { type: 'number_input', action_id: 'v', is_decimal_allowed: true, min_value: '0', max_value: '10' },
      },
      { type: 'input', block_id: 'e', label: plain('Email'), element: { type: 'email_text_input', action_id: 'v' } },
    ],
    ...extra,
  });

  it('accepts a modal with every supported input', () => {
    expect(validateView(modal(), 'modal')).toEqual([]);
  });

  it('enforces modal limits', () => {
    expect(validateView(modal({ title: plain('t'.repeat(25)) }))).toEqual([
      'must be less than 25 characters [json-pointer:/view/title/text]',
    ]);
    expect(validateView(modal({ submit: plain('s'.repeat(25)) }))).toHaveLength(1);
    expect(validateView(modal({ close: plain('c'.repeat(25)) }))).toHaveLength(1);
    expect(validateView(modal({ callback_id: 'c'.repeat(256) }))).toHaveLength(1);
    expect(validateView(modal({ private_metadata: 'm'.repeat(3001) }))).toHaveLength(1);
    expect(validateView(modal({ private_metadata: 'm'.repeat(3000) }))).toEqual([]);
    expect(validateView(modal({ submit: undefined }))[0]).toMatch(/submit is required/);
    expect(validateView({ type: 'modal', blocks: [] })).toEqual(['missing required field: title [json-pointer:/view]']);
    expect(validateView(modal(), 'home')[0]).toMatch(/must be 'home'/);
  });

  it('checks input elements', () => {
    const bad = modal({
      blocks: [
        {
          type: 'input',
          label: plain('D'),
          element: { type: 'datepicker', action_id: 'v', initial_date: '01/05/2024' },
        },
        { type: 'input', label: plain('N'), element: { type: 'number_input', action_id: 'v' } },
        { type: 'input', label: plain('T'), element: { type: 'plain_text_input', action_id: 'v', max_length: 3001 } },
      ],
    });
    expect(validateView(bad)).toEqual([
      'does not match the required format [json-pointer:/view/blocks/0/element/initial_date]',
      'missing required field: is_decimal_allowed [json-pointer:/view/blocks/1/element]',
      'must be an integer between 1 and 3000 [json-pointer:/view/blocks/2/element/max_length]',
    ]);
  });

  it('home views take 100 blocks and no title', () => {
    expect(validateView({ type: 'home', blocks: Array.from({ length: 100 }, () => ({ type: 'divider' })) })).toEqual(
      [],
    );
    expect(validateView({ type: 'home', title: plain('x'), blocks: [] })).toEqual([
      "unsupported property 'title' [json-pointer:/view/title]",
    ]);
  });
});

describe('message content', () => {
  it('maps to Slack error codes', () => {
    expect(validateMessageContent({ text: 'x'.repeat(40001) })).toEqual({ ok: false, error: 'msg_too_long' });
    expect(validateMessageContent({ text: 'x'.repeat(40000) })).toBeUndefined();
    expect(validateMessageContent({})).toEqual({ ok: false, error: 'no_text' });
    expect(validateMessageContent({ text: '', blocks: [{ type: 'divider' }] })).toBeUndefined();
    expect(validateMessageContent({}, false)).toBeUndefined();
    const invalid = validateMessageContent({ text: 'x', blocks: [{ type: 'divider', block_id: '' }] });
    expect(invalid).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must be more than 0 characters [json-pointer:/blocks/0/block_id]'],
      response_metadata: { messages: ['[ERROR] must be more than 0 characters [json-pointer:/blocks/0/block_id]'] },
    });
  });
});
