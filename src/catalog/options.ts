import type { Labelled } from './enums'

// The product's coded option lists (docs/pages.md, "Provider profiles"). The product gives the code
// ranges and prefixes but not the labels; the labels here are ours, written the way a family
// would read them. Each list is stored in D1 as a bitmask in this order: append, never reorder.

function codes(prefix: string, labels: readonly string[], first = 1): Labelled[] {
  return labels.map((label, i) => ({
    code: `${prefix}${String(i + first).padStart(3, '0')}`,
    slug: slugOf(label),
    label,
  }))
}

export function slugOf(label: string): string {
  return label
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/** Housekeeping tasks (HKS…), one per value of the product's housekeeping services enumeration. */
export const HOUSEKEEPING_TASKS = codes('HKS', [
  'Attic cleaning',
  'Basement cleaning',
  'Bathroom cleaning',
  'Cabinet cleaning',
  'Carpet cleaning',
  'Changing bed linens',
  'Deep cleaning',
  'Dishes',
  'Dusting',
  'Furniture treatment',
  'General room cleaning',
  'House sitting',
  'Kitchen cleaning',
  'Laundry',
  'Move-out cleaning',
  'Organization',
  'Oven cleaning',
  'Packing and unpacking',
  'Pet waste cleanup',
  'Plant care',
  'Refrigerator cleaning',
  'Standard cleaning',
  'Surface polishing',
  'Vacuuming and mopping',
  'Wall washing',
  'Window washing',
])

/** Senior care schedules (SCS002–SCS008): how the care is arranged. */
export const SENIOR_CARE_SCHEDULES = codes(
  'SCS',
  [
    'Hourly care',
    'Part-time care',
    'Full-time care',
    'Live-in care',
    'Overnight care',
    '24-hour care',
    'Respite care',
  ],
  2,
)

/** The product's senior care services enumeration, with labels. */
export const SENIOR_CARE_SERVICES: Labelled[] = (
  [
    ['BATHING_DRESSING', 'Bathing and dressing'],
    ['COMPANIONSHIP', 'Companionship'],
    ['DEMENTIA', 'Dementia care'],
    ['ERRANDS_SHOPPING', 'Errands and shopping'],
    ['FEEDING', 'Feeding'],
    ['HEAVY_LIFTING', 'Heavy lifting'],
    ['HELP_STAYING_ACTIVE', 'Help staying active'],
    ['HOME_HEALTH', 'Home health'],
    ['HOME_MODIFICATION', 'Home modification'],
    ['HOSPICE_SERVICES', 'Hospice services'],
    ['LIGHT_HOUSECLEANING', 'Light housecleaning'],
    ['LIVE_IN_HOME', 'Live-in home care'],
    ['MEAL_PREPARATION', 'Meal preparation'],
    ['MEDICAL_MANAGEMENT', 'Medical management'],
    ['MEDICAL_TRANSPORTATION', 'Medical transportation'],
    ['MOBILITY_ASSISTANCE', 'Mobility assistance'],
    ['PERSONAL_CARE', 'Personal care'],
    ['RESPITE_CARE', 'Respite care'],
    ['SPECIALIZED_CARE', 'Specialized care'],
    ['SPECIAL_NEEDS', 'Special needs'],
    ['TRANSPORTATION', 'Transportation'],
    ['VISITING_NURSE', 'Visiting nurse'],
    ['VISITING_PHYSICIAN', 'Visiting physician'],
  ] as const
).map(([code, label]) => ({ code, slug: slugOf(label), label }))

/** Tutoring subjects (GES…). */
export const TUTORING_SUBJECTS = codes('GES', [
  'Math',
  'Reading and writing',
  'Science',
  'English',
  'History and social studies',
  'Foreign languages',
  'Test prep',
  'Computer science',
  'Music lessons',
  'Art',
])

/** Pet services (PCS…). */
export const PET_SERVICES = codes('PCS', [
  'Dog walking',
  'Pet sitting',
  'Overnight boarding',
  'Drop-in visits',
  'Grooming',
  'Training',
])

/** Care gigs (CGS001–CGS005). */
export const CARE_GIGS = codes('CGS', [
  'Errands and shopping',
  'Event help',
  'Moving help',
  'Home organizing',
  'Office and admin tasks',
])

/** Special-needs skills (SNC…). */
export const SPECIAL_NEEDS_SKILLS = codes('SNC', [
  'Autism spectrum',
  'ADHD',
  'Down syndrome',
  'Cerebral palsy',
  'Sensory processing',
  'Speech and language delays',
  'Physical disabilities',
  'Learning disabilities',
])

/** Special-needs ages (SNA001–SNA005). */
export const SPECIAL_NEEDS_AGES = codes('SNA', [
  'Infants and toddlers',
  'Preschoolers',
  'School-age children',
  'Teens',
  'Young adults',
])

/** Daycare schedules (CHDSMBLAL001–CHDSMBLAL008). */
export const DAYCARE_SCHEDULES = codes('CHDSMBLAL', [
  'Full-time',
  'Part-time',
  'Before school',
  'After school',
  'Drop-in care',
  'Evenings',
  'Weekends',
  'Summer programs',
])

/** Daycare age groups (CHDSMBLAG001–CHDSMBLAG005). */
export const DAYCARE_AGE_GROUPS = codes('CHDSMBLAG', [
  'Infants (6 weeks–12 months)',
  'Toddlers (1–2 years)',
  'Preschool (3–4 years)',
  'Pre-K (4–5 years)',
  'School age (5–12 years)',
])

/**
 * Errands (ERRANDS vertical): what an errand runner does. The product gives the vertical but no
 * coded list; the codes follow its senior care enumeration (ERRANDS_SHOPPING, TRANSPORTATION).
 */
export const ERRAND_TASKS: Labelled[] = (
  [
    ['GROCERY_SHOPPING', 'Grocery shopping'],
    ['PHARMACY_PICKUP', 'Pharmacy pickups'],
    ['POST_OFFICE_AND_RETURNS', 'Post office and returns'],
    ['DELIVERY_WAITING', 'Waiting for deliveries and repairs'],
    ['RIDES_TO_APPOINTMENTS', 'Rides to appointments'],
    ['DRY_CLEANING', 'Dry cleaning and laundry drop-off'],
    ['GIFT_SHOPPING', 'Gift and party shopping'],
    ['PET_SUPPLY_RUNS', 'Pet supply runs'],
  ] as const
).map(([code, label]) => ({ code, slug: slugOf(label), label }))
