// The builders alone: every card, modal and home we draw must pass Slack's Block Kit rules (as the
// local workspace checks them), and the edit form must round-trip through the tool's own schema.
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../agent/approvals/ledger.js';
import { getTool, parseToolArgs } from '../../schema/tools/catalog.js';
import { validateBlocks, validateView } from '../../local-slack/index.js';
import { escapeText, quote, quoteChunks } from '../escape.js';
import { approvalCard, type CardContext } from './card.js';
import { customerHome, linkModal, managerHome } from './home.js';
import { editFields, editModal, rejectModal } from './modals.js';
import { argsFromSubmission, errorsForIssues, formFields, type SubmittedState } from './schema-form.js';

const TZ = 'America/New_York';
const ctx: CardContext = {
  timeZone: TZ,
  customer: {
    id: 'cus_001',
    name: 'Maria Gonzalez',
    email: 'maria.gonzalez@example.com',
    phone: '(555) 201-3344',
    address_line1: '18 Wharf Street',
    address_unit: 'Apt 4B',
    city: 'Maple Harbor',
    postal_code: 'MH 1012',
    preferences: { contact: 'sms', eco_products: false },
    notes: 'Buzzer 4B',
  },
  services: [{ id: 'svc_deep_clean', name: 'Deep Cleaning', duration_minutes: 240, price_cents: 26000 }],
  conversationChannel: 'C01SUPPORT0',
};

function approval(tool: string, args: Record<string, unknown>, extra: Partial<Approval> = {}): Approval {
  return {
    id: '5e61f11a-7698-8b8f-8a8e-90c37fd98567',
    thread_id: 'slack:C01SUPPORT0:1.1',
    tool_call_id: 'c1',
    tool,
    status: 'pending',
    args_original: args,
    args,
    args_hash: 'h',
    customer_id: 'cus_001',
    proposed_by: 'agent',
    request_text: 'please do it <!channel>',
    approver: null,
    decided_at: null,
    decision_reason: null,
    expires_at: new Date('2026-12-07T18:00:00Z'),
    superseded_by: null,
    executed_at: null,
    result: null,
    error: null,
    outcome_delivered_at: null,
    card_channel: null,
    card_ts: null,
    created_at: new Date('2026-12-07T14:00:00Z'),
    ...extra,
  };
}

const text = (blocks: unknown) => JSON.stringify(blocks);

describe('approval cards', () => {
  it('book_slot: the slot in the business time zone and the service name', () => {
    const card = approvalCard(
      approval('book_slot', {
        customer_id: 'cus_001',
        service_id: 'svc_deep_clean',
        start_time: '2026-12-08T15:00:00Z',
        notes: 'dog <@U1>',
      }),
      ctx,
    );
    expect(validateBlocks(card.blocks, 'message')).toEqual([]);
    expect(text(card.blocks)).toContain('Tue, Dec 8, 10:00 AM EST');
    expect(text(card.blocks)).toContain('Deep Cleaning (`svc_deep_clean`)');
    expect(text(card.blocks)).toContain('$260.00');
    expect(text(card.blocks)).toContain('dog &lt;@U1&gt;');
    expect(card.text).toBe(
      'Approval needed: Book a visit for Maria Gonzalez (cus_001)'.replace('Book a visit', getTool('book_slot')!.verb),
    );
  });

  it('send_email: the full body, however long and however many & it has, split to fit', () => {
    const body = `Dear Maria & family,\n${'Your visit is confirmed & paid. '.repeat(300)}\nBest`;
    expect(body.length).toBeGreaterThan(9000);
    const card = approvalCard(approval('send_email', { customer_id: 'cus_001', subject: 'Your <visit>', body }), ctx);
    expect(validateBlocks(card.blocks, 'message')).toEqual([]);
    const all = card.blocks
      .map((b) => ('text' in b && b.text && typeof b.text === 'object' ? (b.text as { text: string }).text : ''))
      .join('\n');
    const quoted = all
      .split('\n')
      .filter((l) => l.startsWith('>'))
      .map((l) => l.slice(1))
      .join('');
    const squash = (x: string) => x.replace(/\s+/g, '');
    expect(squash(quoted.replace(/&amp;/g, '&')).includes(squash(body)), 'the whole body is on the card').toBe(true);
    expect(text(card.blocks)).toContain('maria.gonzalez@example.com (address on file)');
    expect(text(card.blocks)).toContain('Your &lt;visit&gt;');
  });

  it('update_customer: a before/after line per changed field, address and preferences included', () => {
    const card = approvalCard(
      approval('update_customer', {
        customer_id: 'cus_001',
        changes: {
          phone: '555 000 1111',
          address: { line1: '1 Main St', city: 'Fernbrook', postal_code: 'MH 2105' },
          preferences: { contact: 'email' },
        },
      }),
      ctx,
    );
    expect(validateBlocks(card.blocks, 'message')).toEqual([]);
    const t = text(card.blocks);
    expect(t).toContain('Now: (555) 201-3344\\nNew: *555 000 1111*');
    expect(t).toContain('Now: 18 Wharf Street, Apt 4B, Maple Harbor, MH 1012\\nNew: *1 Main St, Fernbrook, MH 2105*');
    expect(t).toContain('• Contact: sms → *email*');
  });

  it('after a decision: who, when, the edits, the outcome, and no buttons', () => {
    const decided = approvalCard(
      approval(
        'create_ticket',
        { customer_id: 'cus_001', subject: 'Leak', description: 'It leaks', priority: 'high', category: 'damage' },
        {
          status: 'executed',
          approver: 'slack:U01MGR0001',
          decided_at: new Date('2026-12-07T15:30:00Z'),
          args_original: {
            customer_id: 'cus_001',
            subject: 'Leak',
            description: 'It leaks',
            priority: 'normal',
            category: 'damage',
          },
          args_hash: 'other',
          result: { ticket: { id: 'TKT-1001', priority: 'high' } },
        },
      ),
      ctx,
    );
    expect(validateBlocks(decided.blocks, 'message')).toEqual([]);
    const t = text(decided.blocks);
    expect(t).toContain('by <@U01MGR0001> at Mon, Dec 7, 10:30 AM EST');
    expect(t).toContain('• Priority: normal → *high*');
    expect(t).toContain('Ticket `TKT-1001` opened (high priority).');
    expect(decided.blocks.some((b) => b.type === 'actions')).toBe(false);
    for (const status of ['rejected', 'expired', 'superseded', 'withdrawn', 'failed', 'approved'] as const) {
      const c = approvalCard(
        approval(
          'create_ticket',
          { customer_id: 'cus_001', subject: 'Leak', description: 'x', category: 'damage' },
          {
            status,
            approver: 'api:ops <x>',
            decision_reason: '<!here> no',
            error: { code: 'conflict', message: 'slot <taken>' },
          },
        ),
        ctx,
      );
      expect(validateBlocks(c.blocks, 'message')).toEqual([]);
      expect(text(c.blocks)).not.toMatch(/<!here>|<taken>|<x>/);
    }
  });
});

describe('edit form from the zod schema', () => {
  it('one input per leaf, with dotted block ids, kinds from the schema, customer_id fixed', () => {
    const fields = formFields(getTool('update_customer')!.input, { skip: ['customer_id'] });
    expect(fields.map((f) => `${f.path}:${f.kind}:${f.optional ? 'opt' : 'req'}`)).toEqual([
      'changes.name:text:opt',
      'changes.email:text:opt',
      'changes.phone:text:opt',
      'changes.address.line1:text:opt',
      'changes.address.unit:text:opt',
      'changes.address.city:text:opt',
      'changes.address.postal_code:text:opt',
      'changes.preferences.contact:select:opt',
      'changes.preferences.preferred_time:select:opt',
      'changes.preferences.eco_products:boolean:opt',
      'changes.preferences.pets:text:opt',
      'changes.notes:multiline:opt',
    ]);
    const ticket = formFields(getTool('create_ticket')!.input, { skip: ['customer_id'] });
    expect(ticket.map((f) => `${f.path}:${f.kind}:${f.optional ? 'opt' : 'req'}`)).toEqual([
      'subject:text:req',
      'description:multiline:req',
      'priority:select:opt',
      'category:select:req',
    ]);
    const kb = formFields(getTool('search_knowledge_base')!.input);
    expect(kb.find((f) => f.path === 'limit')).toMatchObject({
      kind: 'number',
      integer: true,
      min: 1,
      max: 10,
      optional: true,
    });
  });

  it('every write tool gets a valid modal, prefilled with the current arguments', () => {
    const cases: [string, Record<string, unknown>][] = [
      [
        'update_customer',
        { customer_id: 'cus_001', changes: { email: 'a@b.co', preferences: { eco_products: true } } },
      ],
      [
        'create_ticket',
        { customer_id: 'cus_001', subject: 'Leak', description: 'It leaks', priority: 'high', category: 'damage' },
      ],
      ['send_email', { customer_id: 'cus_001', subject: 'Hello', body: 'x'.repeat(5000) }],
      ['book_slot', { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-08T10:00:00-05:00' }],
    ];
    for (const [tool, args] of cases) {
      const modal = editModal(approval(tool, args), ctx);
      expect(validateView(modal, 'modal'), tool).toEqual([]);
      expect(validateView(rejectModal(approval(tool, args), ctx), 'modal')).toEqual([]);
    }
    const upd = editModal(approval('update_customer', cases[0]![1]), ctx);
    expect(text(upd.blocks)).toContain('"initial_value":"a@b.co"');
    expect(text(upd.blocks)).toContain('Now: (555) 201-3344');
    const eco = upd.blocks.find((b) => b.block_id === 'changes.preferences.eco_products') as unknown as {
      element: { initial_option: { value: string } };
    };
    expect(eco.element.initial_option.value).toBe('yes');
    const book = editModal(approval('book_slot', cases[3]![1]), ctx);
    const svc = book.blocks.find((b) => b.block_id === 'service_id') as unknown as {
      element: { type: string; initial_option: { value: string } };
    };
    expect(svc.element).toMatchObject({ type: 'static_select', initial_option: { value: 'svc_deep_clean' } });
    // A 5000-character body can't go into a Slack input: it is kept, not offered for editing.
    const email = editModal(approval('send_email', cases[2]![1]), ctx);
    expect(email.blocks.some((b) => b.block_id === 'body')).toBe(false);
    expect(text(email.blocks)).toContain('too long to edit here');
  });

  it('submission → arguments → schema issues on the right inputs', () => {
    const fields = editFields('update_customer', ctx);
    const state: SubmittedState = {
      'changes.email': { value: { type: 'plain_text_input', value: 'nope' } },
      'changes.address.city': { value: { type: 'plain_text_input', value: 'Fernbrook' } },
      'changes.preferences.eco_products': { value: { type: 'static_select', selected_option: { value: 'no' } } },
      'changes.name': { value: { type: 'plain_text_input', value: null } },
    };
    const args = argsFromSubmission(fields, state, { customer_id: 'cus_001' });
    expect(args).toEqual({
      customer_id: 'cus_001',
      changes: { email: 'nope', address: { city: 'Fernbrook' }, preferences: { eco_products: false } },
    });
    const parsed = parseToolArgs('update_customer', args);
    expect(parsed.ok).toBe(false);
    const errors = errorsForIssues(
      parsed.ok ? [] : parsed.issues,
      fields.map((f) => f.path),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'changes.address.line1',
      'changes.address.postal_code',
      'changes.email',
    ]);
    expect(errors['changes.address.line1']).toBe('This is required.');
    // An object-level rule lands on the first input under it.
    expect(
      errorsForIssues(
        [{ path: 'changes', message: 'give at least one field to change' }],
        fields.map((f) => f.path),
      ),
    ).toEqual({
      'changes.name': 'Give at least one field to change.',
    });
  });
});

describe('home and link form', () => {
  it('are valid Block Kit', () => {
    const row = {
      id: '5e61f11a-7698-8b8f-8a8e-90c37fd98567',
      tool: 'book_slot',
      status: 'pending' as const,
      customer_id: 'cus_001',
      customer_name: 'Maria <b>',
      created_at: new Date('2026-12-07T12:00:00Z'),
      expires_at: new Date('2026-12-07T18:00:00Z'),
      approver: null,
      decided_at: null,
      decision_reason: null,
    };
    const home = managerHome({
      pending: [row],
      pendingTotal: 30,
      decided: [
        { ...row, status: 'rejected', approver: 'slack:U1', decided_at: new Date(), decision_reason: 'no <!here>' },
      ],
      now: new Date('2026-12-07T14:00:00Z'),
      timeZone: TZ,
      linkedUsers: 12,
    });
    expect(validateView(home, 'home')).toEqual([]);
    expect(text(home.blocks)).toContain('Waiting 2 h');
    expect(text(home.blocks)).not.toContain('<!here>');
    expect(validateView(customerHome({ linkedName: null, supportChannel: 'C1' }), 'home')).toEqual([]);
    expect(
      validateView(linkModal({ userPicker: 'text', customers: [{ id: 'cus_001', name: 'Maria' }] }), 'modal'),
    ).toEqual([]);
  });
});

describe('escaping', () => {
  it('neutralises every special token and keeps the text readable', () => {
    expect(escapeText('<!channel> <!here|here> <@U123> <#C1|x> <http://evil|bank> a & b @here')).toBe(
      '&lt;!channel&gt; &lt;!here|here&gt; &lt;@U123&gt; &lt;#C1|x&gt; &lt;http://evil|bank&gt; a &amp; b @\u200Bhere',
    );
    expect(quote('line one\n> fake quote\n*bold*')).toBe('>line one\n>&gt; fake quote\n>*bold*');
  });

  it('chunks long text so that every escaped chunk fits a section', () => {
    for (const input of ['&'.repeat(20_000), `${'a'.repeat(4000)}\n${'<'.repeat(3000)}`, 'short']) {
      const chunks = quoteChunks(input, 2900);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(2900);
      const back = chunks
        .join('\n')
        .replace(/^>/gm, '')
        .replace(/\n/g, '')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<');
      expect(back).toBe(input.replace(/\n/g, ''));
    }
  });
});
