import { describe, expect, it } from 'vitest';
import { CUSTOMERS } from '../seed/customers.js';
import { KB_ARTICLES } from '../seed/kb-articles.js';
import { NOT_SERVED, SERVICE_AREA } from './service-area.js';

describe('service area', () => {
  it('says what the help centre says: every town and postal code, and the places we do not serve', () => {
    const articles = KB_ARTICLES.filter((a) => a.topic === 'service-area')
      .map((a) => a.body)
      .join('\n');
    for (const town of SERVICE_AREA) {
      expect(articles).toContain(town.name);
      for (const code of town.postal_codes) expect(articles).toContain(code);
    }
    for (const place of NOT_SERVED) expect(articles).toContain(place);
  });

  it('holds every seeded customer address', () => {
    const codes = new Map(SERVICE_AREA.flatMap((t) => t.postal_codes.map((c) => [c, t.name] as const)));
    for (const c of CUSTOMERS) if (c.address) expect(codes.get(c.address.postal_code)).toBe(c.address.city);
  });
});
