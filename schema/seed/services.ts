/**
 * Seed catalogue of Brightwell Home Services offerings.
 *
 * Prices are flat, per visit, in US cents. They are quoted verbatim in the
 * help-centre articles (kb-articles.ts), so keep the two files in sync.
 */

export interface SeedService {
  id: string;
  name: string;
  description: string;
  category: 'cleaning' | 'repair' | 'install';
  duration_minutes: number;
  price_cents: number;
}

export const SERVICES: readonly SeedService[] = [
  {
    id: 'svc_standard_clean',
    name: 'Standard Home Cleaning',
    description:
      'Routine cleaning of kitchen, bathrooms, bedrooms and living areas: dusting, vacuuming, mopping, wiping counters and fixtures, and emptying bins. Covers homes with up to 3 bedrooms and 2 bathrooms; each additional bedroom or bathroom is $25.',
    category: 'cleaning',
    duration_minutes: 180,
    price_cents: 14900,
  },
  {
    id: 'svc_deep_clean',
    name: 'Deep Cleaning',
    description:
      'Everything in a standard cleaning plus baseboards, door frames, cabinet fronts, inside the oven and microwave, behind movable furniture and descaling of showers and taps. Recommended as a first visit or a few times a year. Covers up to 3 bedrooms and 2 bathrooms; each additional room is $25.',
    category: 'cleaning',
    duration_minutes: 240,
    price_cents: 28900,
  },
  {
    id: 'svc_move_out_clean',
    name: 'Move-In/Move-Out Cleaning',
    description:
      'A top-to-bottom clean of an empty home, including inside all cabinets, drawers, closets, the fridge and the oven. Designed to meet typical landlord and deposit-return checklists. A 25% deposit is taken at booking.',
    category: 'cleaning',
    duration_minutes: 240,
    price_cents: 34900,
  },
  {
    id: 'svc_window_clean',
    name: 'Interior Window Cleaning',
    description:
      'Inside cleaning of up to 20 windows, including glass, frames, sills and tracks. Exterior and above-ground-floor outside glass is not included.',
    category: 'cleaning',
    duration_minutes: 120,
    price_cents: 12900,
  },
  {
    id: 'svc_handyman_hour',
    name: 'Handyman Hour',
    description:
      'One hour of a technician’s time for small jobs such as hanging shelves and pictures, adjusting sticking doors, assembling furniture or replacing cabinet hardware. Extra time is $45 per additional 30 minutes, only with your approval.',
    category: 'repair',
    duration_minutes: 60,
    price_cents: 9500,
  },
  {
    id: 'svc_faucet_repair',
    name: 'Faucet Repair',
    description:
      'Diagnosis and repair of a dripping or leaking kitchen or bathroom faucet, including standard washers, O-rings and cartridges. A full replacement faucet, if needed, is quoted before work starts.',
    category: 'repair',
    duration_minutes: 90,
    price_cents: 14500,
  },
  {
    id: 'svc_drywall_patch',
    name: 'Drywall Patch Repair',
    description:
      'Patching of up to 3 holes or dents in drywall, each smaller than 6 inches across, finished with texture and primer. We paint over the patch if you provide the matching paint.',
    category: 'repair',
    duration_minutes: 120,
    price_cents: 16500,
  },
  {
    id: 'svc_tv_mount',
    name: 'TV Wall Mounting',
    description:
      'Mounting of one TV up to 75 inches on a drywall wall, anchored into studs, levelled, with cables tidied behind a paintable surface cover. Bring your own bracket or add our universal tilting bracket for $45.',
    category: 'install',
    duration_minutes: 90,
    price_cents: 15900,
  },
  {
    id: 'svc_smart_thermostat_install',
    name: 'Smart Thermostat Installation',
    description:
      'Removal of your old thermostat and installation of a smart thermostat you supply, including Wi-Fi setup and a test of heating and cooling. If your system needs a C-wire adapter, we fit one for $35.',
    category: 'install',
    duration_minutes: 90,
    price_cents: 18900,
  },
  {
    id: 'svc_ceiling_fan_install',
    name: 'Ceiling Fan Installation',
    description:
      'Replacement of an existing ceiling light or fan with a ceiling fan you supply, including assembly, balancing and a test of all speeds and the light kit. If the ceiling box is not fan-rated, we replace it for $30.',
    category: 'install',
    duration_minutes: 120,
    price_cents: 19900,
  },
];
