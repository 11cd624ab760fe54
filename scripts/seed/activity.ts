// Camps and classes for kids: what, for which ages, when, where and for how much. Some have
// already ended, so listings must leave them out; ongoing classes have no dates.
import { faker } from '@faker-js/faker'
import type { ActivityCategory } from '../../src/catalog/activities'
import {
  ACTIVITY_AGE_GROUPS,
  ACTIVITY_CATEGORIES,
  ACTIVITY_SOURCE,
} from '../../src/catalog/activities'
import type { CityRows } from './city-rows'
import type { Ids } from './ids'
import type { Place } from './places'
import { DAY, iso, round } from './random'
import { STREET_TYPES, STREETS } from './texts'

const WEIGHTS: Record<string, number> = {
  sports: 20,
  stem: 15,
  art: 14,
  music: 14,
  dance: 10,
  academic: 9,
  'outdoor-and-adventure': 9,
  cooking: 5,
  activities: 4,
}

const OWN_NAMES: Record<string, readonly string[]> = {
  cooking: ["Kids' Cooking Class", 'Little Chefs', 'Baking Basics', 'Junior Chef Academy'],
  activities: [
    'After-School Activity Club',
    "Kids' Night Out",
    'Open Play Afternoons',
    'Games and Crafts Club',
  ],
}

const ORGANIZER_WORDS = [
  'Bright',
  'Little',
  'Happy',
  'Young',
  'Next Gen',
  'Kid Power',
  'Sunny',
  'Big Dreams',
]
const ORGANIZER_KINDS = ['Academy', 'Studio', 'Center', 'Club', 'Lab', 'Workshop']

const WEEKDAYS_MASK = 0b0011111

/** One activity, of the keyword `only` if given, appended to `rows`. */
export function generateActivity(
  rows: CityRows,
  ids: Ids,
  place: Place,
  now: Date,
  only?: string,
): void {
  ids.activity += 1
  const forced = only
    ? ACTIVITY_CATEGORIES.flatMap((c) => [
        ...(c.slug === only ? [{ category: c, sub: null }] : []),
        ...c.subcategories.filter((s) => s.slug === only).map((s) => ({ category: c, sub: s })),
      ])[0]
    : undefined
  const category =
    forced?.category ??
    faker.helpers.weightedArrayElement(
      ACTIVITY_CATEGORIES.map((c) => ({ value: c, weight: WEIGHTS[c.slug] ?? 5 })),
    )
  const sub = forced
    ? forced.sub
    : category.subcategories.length
      ? faker.helpers.arrayElement(category.subcategories)
      : null
  const topic = sub?.label ?? category.label
  const online = faker.datatype.boolean(0.2)
  const camp = !online && faker.datatype.boolean(0.45)
  const today = new Date(now.toISOString().slice(0, 10) + 'T00:00:00Z')

  // Camps run a week or two on school breaks; classes run an eight-week session or are ongoing.
  let start: Date | null = null
  let end: Date | null = null
  if (camp) {
    start = new Date(today.getTime() + faker.number.int({ min: -20, max: 240 }) * DAY)
    end = new Date(start.getTime() + faker.helpers.arrayElement([4, 4, 11]) * DAY)
  } else if (faker.datatype.boolean(0.5) || only) {
    start = new Date(today.getTime() + faker.number.int({ min: -70, max: 90 }) * DAY)
    end = new Date(start.getTime() + 55 * DAY)
  }
  if (only && end && end < today) end = new Date(today.getTime() + 30 * DAY)
  const days = camp
    ? WEEKDAYS_MASK
    : faker.helpers
        .arrayElements([0, 1, 2, 3, 4, 5, 6], { min: 1, max: 2 })
        .reduce((m: number, d) => m | (2 ** d), 0)

  const first = faker.number.int({ min: topic === 'Creative play' ? 0 : 1, max: 4 })
  const span = faker.number.int({ min: 1, max: 2 })
  const ages = ACTIVITY_AGE_GROUPS.reduce(
    (m, _, i) => (i >= first && i < first + span ? m | (2 ** i) : m),
    0,
  )

  const season = start ? seasonOf(start) : null
  const name = OWN_NAMES[category.slug]
    ? faker.helpers.arrayElement(OWN_NAMES[category.slug] ?? [])
    : online
      ? faker.helpers.arrayElement([`Live Online ${topic} Class`, `Online ${topic} Workshop`])
      : camp
        ? `${topic} ${season ?? 'Summer'} Camp`
        : faker.helpers.arrayElement([
            `Intro to ${topic}`,
            `${topic} for Beginners`,
            `${topic} Club`,
            `Junior ${topic} Academy`,
            `${topic} Lessons`,
          ])
  const organizer = `${faker.helpers.arrayElement(ORGANIZER_WORDS)} ${category.slug === 'stem' ? 'STEM' : category.label} ${faker.helpers.arrayElement(ORGANIZER_KINDS)}`
  const [price, unit] = camp
    ? [faker.number.int({ min: 200, max: 450 }), 'wk']
    : online
      ? [faker.number.int({ min: 10, max: 25 }), 'session']
      : faker.datatype.boolean(0.7)
        ? [faker.number.int({ min: 15, max: 45 }), 'session']
        : [faker.number.int({ min: 80, max: 180 }), 'mo']

  rows.activities.push({
    id: ids.activity,
    name,
    organizer,
    source: ACTIVITY_SOURCE,
    category: category.slug,
    subcategory: sub?.slug ?? null,
    participation: online ? 'ONLINE' : 'IN_PERSON',
    ages,
    days,
    start_date: start ? iso(start).slice(0, 10) : null,
    end_date: end ? iso(end).slice(0, 10) : null,
    is_camp: camp ? 1 : 0,
    price,
    price_unit: unit,
    description: describe(category, topic, camp, online, place),
    city_id: online ? null : place.id,
    venue: online ? null : organizer,
    address: online
      ? null
      : `${faker.number.int({ min: 100, max: 9899 })} ${faker.helpers.arrayElement(STREETS)} ${faker.helpers.arrayElement(STREET_TYPES)}`,
    rank_score: round(faker.number.float({ min: 0, max: 10 }), 4),
  })
}

function seasonOf(d: Date): string {
  const m = d.getUTCMonth()
  if (m >= 2 && m <= 4) return 'Spring'
  if (m >= 5 && m <= 7) return 'Summer'
  if (m >= 8 && m <= 10) return 'Fall'
  return 'Winter'
}

function describe(
  category: ActivityCategory,
  topic: string,
  camp: boolean,
  online: boolean,
  place: Place,
): string {
  const what = topic.toLowerCase()
  const opening = camp
    ? `A full week of ${what} with experienced counselors, games and a showcase on the last day.`
    : online
      ? `Live, small-group ${what} lessons your child can join from home.`
      : `Weekly ${what} sessions in ${place.name} that build skills and confidence.`
  const middle = faker.helpers.arrayElement([
    'Kids work in small groups, so everyone gets attention.',
    'No experience needed: instructors meet every child where they are.',
    'All materials are included.',
    `A great way to try ${category.label.toLowerCase()} with new friends.`,
  ])
  return `${opening} ${middle}`
}
