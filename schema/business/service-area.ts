/**
 * Where the business goes, as the "Where we provide service" and "If your address is outside our
 * service area" help articles state it. The planner reads the place names (a town is not a person
 * whose record is asked about); fees and wording stay in the articles.
 */
export interface ServiceTown {
  name: string;
  /** Neighbourhoods with their own postal code, when the town has several. */
  neighbourhoods: readonly { name: string; postal_code: string }[];
  postal_codes: readonly string[];
  travel_surcharge_cents: number;
}

export const SERVICE_AREA: readonly ServiceTown[] = [
  {
    name: 'Maple Harbor',
    neighbourhoods: [
      { name: 'Old Harbor', postal_code: 'MH 1012' },
      { name: 'Lighthouse Point', postal_code: 'MH 1024' },
      { name: 'Cedar Hill', postal_code: 'MH 1036' },
      { name: 'Northgate', postal_code: 'MH 1048' },
    ],
    postal_codes: ['MH 1012', 'MH 1024', 'MH 1036', 'MH 1048'],
    travel_surcharge_cents: 0,
  },
  { name: 'Fernbrook', neighbourhoods: [], postal_codes: ['MH 2105'], travel_surcharge_cents: 0 },
  { name: 'Willow Bay', neighbourhoods: [], postal_codes: ['MH 2210'], travel_surcharge_cents: 0 },
  { name: 'Quarry Falls', neighbourhoods: [], postal_codes: ['MH 3150'], travel_surcharge_cents: 3500 },
  { name: 'Pinecrest', neighbourhoods: [], postal_codes: ['MH 3260'], travel_surcharge_cents: 3500 },
];

/** Places nearby that customers ask about and we do not serve. */
export const NOT_SERVED: readonly string[] = ['Harrow Island', 'Eastvale'];

/** Every place name of the area, served or not: towns, neighbourhoods and the places we don't serve. */
export function placeNames(): string[] {
  return [...SERVICE_AREA.flatMap((t) => [t.name, ...t.neighbourhoods.map((n) => n.name)]), ...NOT_SERVED];
}

/** An address in the area's own format, for examples in clarifying questions. */
export const EXAMPLE_ADDRESS = `12 Oak St, Apt 3, ${SERVICE_AREA[0]!.name} MH 1042`;
