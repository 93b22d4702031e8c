/** The fixed "now" of every test, eval and benchmark that seeds: a Monday morning, so the next two weeks are known. */
export const TEST_NOW = '2026-12-07T14:00:00.000Z';
export const TEST_TZ = 'America/New_York';
