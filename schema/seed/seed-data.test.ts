import { describe, it, expect } from 'vitest';

import { CUSTOMERS } from './customers.js';
import { KB_ARTICLES, KB_TOPICS } from './kb-articles.js';
import { RETRIEVAL_CASES } from './retrieval-cases.js';
import { SERVICES } from './services.js';
import { DEMO_GUESTS, DEMO_MANAGERS, DEMO_SLACK_USERS } from './slack-users.js';

const SERVICE_AREA_POSTAL_CODES = new Set([
  'MH 1012',
  'MH 1024',
  'MH 1036',
  'MH 1048',
  'MH 2105',
  'MH 2210',
  'MH 3150',
  'MH 3260',
]);

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function dollars(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

describe('services', () => {
  it('has at least 7 services with unique ids', () => {
    expect(SERVICES.length).toBeGreaterThanOrEqual(7);
    expect(duplicates(SERVICES.map((s) => s.id))).toEqual([]);
  });

  it('has realistic durations and prices', () => {
    for (const service of SERVICES) {
      expect(service.id).toMatch(/^svc_[a-z0-9_]+$/);
      expect(service.duration_minutes).toBeGreaterThanOrEqual(60);
      expect(service.duration_minutes).toBeLessThanOrEqual(240);
      expect(Number.isInteger(service.price_cents)).toBe(true);
      expect(service.price_cents).toBeGreaterThan(0);
    }
  });

  it('covers every category', () => {
    const categories = new Set(SERVICES.map((s) => s.category));
    expect([...categories].sort()).toEqual(['cleaning', 'install', 'repair']);
  });

  it('quotes every service price in the pricing articles', () => {
    const pricingText = KB_ARTICLES.filter((a) => a.topic === 'pricing')
      .map((a) => a.body)
      .join('\n');
    for (const service of SERVICES) {
      expect(pricingText, service.id).toContain(dollars(service.price_cents));
    }
  });
});

describe('knowledge base', () => {
  it('has at least 44 articles across at least 9 topics', () => {
    expect(KB_ARTICLES.length).toBeGreaterThanOrEqual(44);
    expect(KB_TOPICS.length).toBeGreaterThanOrEqual(9);
  });

  it('has unique article ids and topics', () => {
    expect(duplicates(KB_ARTICLES.map((a) => a.id))).toEqual([]);
    expect(duplicates(KB_TOPICS)).toEqual([]);
  });

  it('files every article under a known topic, with an id derived from it', () => {
    for (const article of KB_ARTICLES) {
      expect(KB_TOPICS).toContain(article.topic);
      expect(article.id).toMatch(new RegExp(`^kb-${article.topic}-\\d{2}$`));
    }
  });

  it('has at least one article per topic', () => {
    for (const topic of KB_TOPICS) {
      expect(
        KB_ARTICLES.some((a) => a.topic === topic),
        topic,
      ).toBe(true);
    }
  });

  it('keeps bodies to 80-220 words of plain text', () => {
    for (const article of KB_ARTICLES) {
      const words = wordCount(article.body);
      expect(words, article.id).toBeGreaterThanOrEqual(80);
      expect(words, article.id).toBeLessThanOrEqual(220);
      expect(article.body, article.id).not.toMatch(/^\s*#/m);
      expect(article.body, article.id).not.toMatch(/\*\*|^\s*[-*] /m);
      expect(article.body, article.id).not.toMatch(/\n{3,}/);
      expect(article.title.trim()).toBe(article.title);
    }
  });

  it('shares vocabulary across topics so retrieval is not trivial', () => {
    for (const term of ['fee', 'visit']) {
      const topics = new Set(KB_ARTICLES.filter((a) => a.body.toLowerCase().includes(term)).map((a) => a.topic));
      expect(topics.size, term).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('retrieval cases', () => {
  it('has at least 30 cases', () => {
    expect(RETRIEVAL_CASES.length).toBeGreaterThanOrEqual(30);
  });

  it('only expects articles that exist', () => {
    const ids = new Set(KB_ARTICLES.map((a) => a.id));
    for (const testCase of RETRIEVAL_CASES) {
      expect(testCase.expected.length, testCase.question).toBeGreaterThan(0);
      for (const id of testCase.expected) {
        expect(ids.has(id), `${testCase.question} -> ${id}`).toBe(true);
      }
    }
  });

  it('has unique questions and some very short ones', () => {
    expect(duplicates(RETRIEVAL_CASES.map((c) => c.question.toLowerCase()))).toEqual([]);
    const short = RETRIEVAL_CASES.filter((c) => wordCount(c.question) === 1);
    expect(short.length).toBeGreaterThanOrEqual(3);
  });

  it('does not copy article titles verbatim', () => {
    for (const testCase of RETRIEVAL_CASES) {
      for (const id of testCase.expected) {
        const article = KB_ARTICLES.find((a) => a.id === id);
        expect(testCase.question.toLowerCase()).not.toContain(article?.title.toLowerCase());
      }
    }
  });
});

describe('customers', () => {
  it('has at least 28 customers with unique, sequential-style ids', () => {
    expect(CUSTOMERS.length).toBeGreaterThanOrEqual(28);
    expect(duplicates(CUSTOMERS.map((c) => c.id))).toEqual([]);
    for (const customer of CUSTOMERS) {
      expect(customer.id).toMatch(/^cus_\d{3}$/);
    }
  });

  it('has at least two customers sharing a first name', () => {
    const firstNames = CUSTOMERS.map((c) => c.name.split(' ')[0] ?? '');
    expect(duplicates(firstNames).length).toBeGreaterThanOrEqual(1);
  });

  it('has at least two customers sharing a surname', () => {
    const surnames = CUSTOMERS.map((c) => c.name.split(' ').at(-1) ?? '');
    expect(duplicates(surnames).length).toBeGreaterThanOrEqual(1);
  });

  it('includes imperfect records', () => {
    expect(CUSTOMERS.some((c) => c.address?.unit != null)).toBe(true);
    expect(CUSTOMERS.some((c) => c.phone === null)).toBe(true);
    expect(CUSTOMERS.some((c) => c.email === null)).toBe(true);
  });

  it('has unique emails, case-insensitively (customers_email_key)', () => {
    const emails = CUSTOMERS.flatMap((c) => (c.email === null ? [] : [c.email.toLowerCase()]));
    expect(duplicates(emails)).toEqual([]);
  });

  it('uses example email domains and in-area postal codes', () => {
    for (const customer of CUSTOMERS) {
      if (customer.email !== null) {
        expect(customer.email).toMatch(/@([a-z0-9-]+\.)*example\.(com|org|net)$/);
      }
      if (customer.address !== null) {
        expect(customer.address.postal_code).toMatch(/^MH \d{4}$/);
        expect(SERVICE_AREA_POSTAL_CODES.has(customer.address.postal_code)).toBe(true);
      }
    }
  });

  it('links most customers to unique Slack ids', () => {
    const slackIds = CUSTOMERS.flatMap((c) => (c.slack_user_id === null ? [] : [c.slack_user_id]));
    expect(slackIds.length).toBeGreaterThanOrEqual(20);
    expect(slackIds.length).toBeLessThan(CUSTOMERS.length);
    expect(duplicates(slackIds)).toEqual([]);
    for (const id of slackIds) {
      expect(id).toMatch(/^U[0-9A-Z]{8,11}$/);
    }
  });
});

describe('slack users', () => {
  it('has 3 managers and 2 guests', () => {
    expect(DEMO_MANAGERS).toHaveLength(3);
    expect(DEMO_GUESTS).toHaveLength(2);
    expect(DEMO_MANAGERS.every((u) => u.role === 'manager')).toBe(true);
    expect(DEMO_GUESTS.every((u) => u.role === 'guest')).toBe(true);
  });

  it('has unique, well-formed Slack ids', () => {
    const ids = DEMO_SLACK_USERS.map((u) => u.id);
    expect(duplicates(ids)).toEqual([]);
    expect(duplicates(DEMO_SLACK_USERS.map((u) => u.name))).toEqual([]);
    for (const id of ids) {
      expect(id).toMatch(/^U[0-9A-Z]{8,11}$/);
    }
  });

  it('keeps manager and guest ids disjoint from customer ids', () => {
    const customerSlackIds = new Set(CUSTOMERS.map((c) => c.slack_user_id));
    for (const user of [...DEMO_MANAGERS, ...DEMO_GUESTS]) {
      expect(customerSlackIds.has(user.id), user.id).toBe(false);
    }
  });

  it('has exactly one customer user per linked customer', () => {
    const linked = CUSTOMERS.filter((c) => c.slack_user_id !== null);
    const customerUsers = DEMO_SLACK_USERS.filter((u) => u.role === 'customer');
    expect(customerUsers).toHaveLength(linked.length);
    for (const customer of linked) {
      const user = customerUsers.find((u) => u.id === customer.slack_user_id);
      expect(user?.real_name).toBe(customer.name);
    }
    expect(DEMO_SLACK_USERS).toHaveLength(DEMO_MANAGERS.length + DEMO_GUESTS.length + linked.length);
  });
});
