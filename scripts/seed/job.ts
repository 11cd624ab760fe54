// A job: what a family or a business needs, when, for how much. About a third of the jobs
// of a seeded catalog have already expired, so the 410 pages have real data behind them.
import { faker } from '@faker-js/faker'
import type { JobSchedule, JobType } from '../../src/catalog/jobs'
import { findJobService, JOB_REQUIREMENTS } from '../../src/catalog/jobs'
import type { PayUnit } from '../../src/catalog/enums'
import { slugOf } from '../../src/catalog/options'
import type { CityRows } from './city-rows'
import type { Ids } from './ids'
import { BASE_RATE, costOf, radiusOf } from './market'
import type { Place } from './places'
import { between, clamp, DAY, iso, mask, pointNear, round } from './random'
import { DAYCARE_KINDS, DAYCARE_NAMES } from './texts'

interface JobPlan {
  slug: string
  weight: number
  /** Titles a family writes; {n} children, {kid} a child's age group. */
  titles: readonly string[]
  /** Titles a business writes, and the kind of business. */
  business: { titles: readonly string[]; kinds: readonly string[] }
  /** What the job is about, in the family's words. */
  details: readonly string[]
  /** Pay units other than hourly, with their weights; hourly takes the rest. */
  units?: readonly [PayUnit, number][]
  /** The schedules this kind of job comes in. */
  schedules: readonly JobSchedule[]
}

const PLANS: readonly JobPlan[] = [
  {
    slug: 'babysitting-jobs',
    schedules: ['PART_TIME', 'ONE_TIME', 'RECURRING'],
    weight: 22,
    titles: [
      'Babysitter needed for {n} kids',
      'Date-night sitter for our {kid}',
      'After-school babysitter',
      '{sched} babysitter for {n} children',
    ],
    business: { titles: ['Drop-in child care attendant'], kinds: ['Kids Club', 'Play Center'] },
    details: [
      'We are a busy family looking for a fun, reliable sitter.',
      'Our kids love board games, the park and arts and crafts.',
      'Pick-up from school and help with homework would be a plus.',
    ],
    units: [['night', 5]],
  },
  {
    slug: 'nanny-jobs',
    schedules: ['FULL_TIME', 'PART_TIME', 'RECURRING'],
    weight: 14,
    titles: [
      '{sched} nanny for {n} children',
      'Nanny for our {kid}',
      'Nanny share with a neighbor family',
      'Experienced nanny for our {kid}',
    ],
    business: { titles: ['Nanny placement: family assistant'], kinds: ['Nanny Agency'] },
    details: [
      'We are looking for a warm, experienced nanny to become part of our family.',
      'Duties include meals, naps, outings and light housekeeping related to the kids.',
      'We value clear communication and a consistent routine.',
    ],
    units: [['wk', 30]],
  },
  {
    slug: 'child-care-jobs',
    schedules: ['FULL_TIME', 'PART_TIME', 'RECURRING'],
    weight: 12,
    titles: [
      'Child care provider for our {kid}',
      'Before- and after-school care',
      '{sched} child care for {n} kids',
    ],
    business: {
      titles: [
        'Assistant teacher, toddler room',
        'Lead preschool teacher',
        'Infant room caregiver',
      ],
      kinds: DAYCARE_KINDS,
    },
    details: [
      'We need dependable care while both parents work.',
      'Our child is curious, energetic and loves books.',
      'Experience with early learning activities is welcome.',
    ],
  },
  {
    slug: 'senior-care-jobs',
    schedules: ['FULL_TIME', 'PART_TIME', 'RECURRING'],
    weight: 14,
    titles: [
      'Companion caregiver for my mother',
      'Caregiver for my elderly father',
      '{sched} caregiver for my grandmother',
      'Help with errands and appointments',
    ],
    business: {
      titles: ['Home health aide', 'Personal care assistant'],
      kinds: ['Home Care', 'Senior Living'],
    },
    details: [
      'My parent needs help with meals, medication reminders and getting around.',
      'We are looking for someone patient and kind who enjoys conversation.',
      'Experience with memory care is a plus.',
    ],
    units: [
      ['day', 10],
      ['mo', 5],
    ],
  },
  {
    slug: 'housekeeping-jobs',
    schedules: ['PART_TIME', 'ONE_TIME', 'RECURRING'],
    weight: 12,
    titles: [
      '{sched} house cleaner for a 3-bedroom home',
      'Housekeeper for a family of four',
      'Laundry and tidying help',
      'Kitchen and bathroom cleaning',
    ],
    business: { titles: ['Residential house cleaner'], kinds: ['Cleaning Co.'] },
    details: [
      'Kitchens, bathrooms, floors and dusting throughout.',
      'We have a friendly dog, so please be comfortable with pets.',
      'Supplies are provided, but bring your own if you prefer.',
    ],
    units: [['flat', 25]],
  },
  {
    slug: 'tutoring-jobs',
    schedules: ['PART_TIME', 'RECURRING'],
    weight: 9,
    titles: [
      'Math tutor for an 8th grader',
      'SAT prep tutor',
      'Reading tutor for a 2nd grader',
      'Spanish tutor for high school student',
    ],
    business: {
      titles: ['Math and reading tutor', 'Test prep instructor'],
      kinds: ['Learning Center'],
    },
    details: [
      'Our student needs help building confidence and study habits.',
      'Sessions can be at our home or online.',
      'We would like regular updates on progress.',
    ],
    units: [['session', 35]],
  },
  {
    slug: 'pet-care-jobs',
    schedules: ['PART_TIME', 'ONE_TIME', 'RECURRING'],
    weight: 9,
    titles: [
      'Dog walker for two labs',
      'Cat sitter needed',
      'Pet sitter for a friendly dog',
      'Puppy visits at lunchtime',
    ],
    business: { titles: ['Kennel attendant', 'Dog daycare handler'], kinds: ['Pet Resort'] },
    details: [
      'Our pets are friendly and well trained.',
      'Feeding, fresh water, a walk and lots of attention.',
      'Please send a photo update after each visit.',
    ],
    units: [
      ['night', 30],
      ['flat', 15],
    ],
  },
  {
    slug: 'care-gigs',
    schedules: ['ONE_TIME', 'PART_TIME'],
    weight: 5,
    titles: [
      'Help with moving boxes',
      'Errand runner for a busy family',
      'Party helper for a birthday',
      'Home organizing help',
    ],
    business: { titles: ['Event staff'], kinds: ['Events'] },
    details: [
      'It is a short, friendly job with clear instructions.',
      'A reliable car would help.',
      'Flexible timing within the day.',
    ],
    units: [['flat', 45]],
  },
  {
    slug: 'special-needs-jobs',
    schedules: ['PART_TIME', 'RECURRING', 'FULL_TIME'],
    weight: 3,
    titles: [
      'Caregiver for a teen with autism',
      'After-school aide for a child with ADHD',
      'Respite care for our son',
    ],
    business: { titles: ['Behavior support aide'], kinds: ['Therapy Center'] },
    details: [
      'We are looking for someone calm, patient and consistent.',
      'Experience with visual schedules and positive reinforcement is a plus.',
      'We will share our routines and what works for our child.',
    ],
  },
]

const KIDS: Record<string, string> = {
  NEWBORN: 'newborn',
  TODDLER: 'toddler',
  EARLY_SCHOOL: 'preschooler',
  ELEMENTARY_SCHOOL: 'grade-schooler',
  TEEN: 'teen',
}

const BUSINESS_DETAILS = [
  'We offer competitive pay and paid training.',
  'Join a friendly team that puts families first.',
  'Flexible shifts are available, including weekends.',
  'Experience is welcome, and we train the right person.',
]

const SCHEDULE_WORD: Record<JobSchedule, string> = {
  FULL_TIME: 'Full-time',
  PART_TIME: 'Part-time',
  ONE_TIME: 'One-time',
  RECURRING: 'Regular',
}

const SCHEDULE_SENTENCE: Record<JobSchedule, string> = {
  FULL_TIME: 'This is a full-time position of about {hours} hours a week.',
  PART_TIME: 'This is a part-time job of about {hours} hours a week.',
  ONE_TIME: 'This is a one-time job.',
  RECURRING: 'This is recurring care of about {hours} hours a week, on a regular schedule.',
}

const HOURS: Record<JobSchedule, [number, number] | null> = {
  FULL_TIME: [32, 50],
  PART_TIME: [8, 28],
  ONE_TIME: null,
  RECURRING: [4, 20],
}

/** One job of `place`, of the job service `only` if given, appended to `rows`. */
export function generateJob(
  rows: CityRows,
  ids: Ids,
  place: Place,
  now: Date,
  only?: string,
): void {
  ids.job += 1
  const plan =
    PLANS.find((p) => p.slug === only) ??
    faker.helpers.weightedArrayElement(PLANS.map((p) => ({ weight: p.weight, value: p })))
  const jobService = findJobService(plan.slug)
  if (!jobService) throw new Error(`no job service ${plan.slug}`)
  const type: JobType = faker.datatype.boolean(0.2) ? 'SMB_JOB' : 'SEEKER_JOB'
  const schedule =
    type === 'SMB_JOB'
      ? faker.helpers.arrayElement(['FULL_TIME', 'PART_TIME'] as const)
      : faker.helpers.arrayElement(plan.schedules)
  const range = HOURS[schedule]
  const hours = range ? faker.number.int({ min: range[0], max: range[1] }) : null
  const agesList = jobService.service.ages
  const children =
    agesList.length && type === 'SEEKER_JOB' ? faker.number.int({ min: 1, max: 3 }) : 0
  // Each child is in one age group; siblings may share one.
  const ages = faker.helpers
    .arrayElements(agesList, { min: Math.min(1, children), max: children })
    .reduce((m, item) => m | (2 ** agesList.indexOf(item)), 0)
  const kid = KIDS[jobService.service.ages.find((_, i) => ages & (2 ** i))?.code ?? ''] ?? 'child'

  const employer =
    type === 'SMB_JOB'
      ? `${faker.helpers.arrayElement(DAYCARE_NAMES)} ${faker.helpers.arrayElement(plan.business.kinds)}`
      : `${faker.person.firstName()} ${faker.person.lastName().charAt(0)}.`
  const title = (
    type === 'SMB_JOB'
      ? faker.helpers.arrayElement(plan.business.titles)
      : faker.helpers.arrayElement(plan.titles)
  )
    .replaceAll('{n}', String(Math.max(children, 2)))
    .replaceAll('{kid}', kid)
    .replaceAll('{sched}', SCHEDULE_WORD[schedule])

  // Pay: the hourly market rate of the city, converted to the job's unit.
  const hourly =
    (BASE_RATE[jobService.service.slug] ?? 20) *
    costOf(place) *
    faker.number.float({ min: 0.9, max: 1.15 })
  const unit: PayUnit =
    schedule === 'ONE_TIME' && plan.units?.some(([u]) => u === 'flat')
      ? 'flat'
      : faker.helpers.weightedArrayElement([
          {
            value: 'hr',
            weight: 100 - (plan.units ?? []).reduce((n, [, w]) => n + w, 0),
          },
          ...(plan.units ?? []).map(([value, weight]) => ({ value, weight })),
        ])
  const perUnit: Record<PayUnit, number> = {
    hr: 1,
    day: 8,
    wk: hours ?? 40,
    mo: 160 * 0.7,
    flat: 3,
    night: 5,
    session: 1.5,
  }
  const mid = hourly * perUnit[unit]
  const payMin = Math.max(10, Math.round(mid * 0.92))
  const payMax = clamp(
    Math.round(mid * faker.number.float({ min: 1.05, max: 1.25 })),
    payMin + 1,
    unit === 'hr' ? 50 : 100_000,
  )

  const requirements = mask(JOB_REQUIREMENTS, [
    0.7,
    jobService.service.ages.length ? 0.5 : 0.1,
    0.35,
    0.6,
    0.25,
    0.2,
    0.08,
    0.4,
  ])
  // A job asked for by name was posted in the last three weeks, so it is still open.
  const posted = between(
    new Date(now.getTime() - (only ? 21 : 60) * DAY),
    new Date(now.getTime() - 3_600_000),
  )
  const validThrough = new Date(posted.getTime() + faker.number.int({ min: 30, max: 45 }) * DAY)
  const start = new Date(posted.getTime() + faker.number.int({ min: 2, max: 30 }) * DAY)
  const who =
    type === 'SMB_JOB'
      ? `${employer} is hiring in ${place.name}.`
      : `We are a family in ${place.name}.`
  const description = [
    who,
    ...faker.helpers.arrayElements(type === 'SMB_JOB' ? BUSINESS_DETAILS : plan.details, {
      min: 1,
      max: 2,
    }),
    SCHEDULE_SENTENCE[schedule].replace('{hours}', String(hours)),
  ].join(' ')
  const { lat, lng } = pointNear(place, radiusOf(place))

  rows.jobs.push({
    id: ids.job,
    title_slug: slugOf(title),
    title,
    service: jobService.slug,
    job_type: type,
    employer,
    city_id: place.id,
    lat,
    lng,
    description,
    pay_min: payMin,
    pay_max: payMax,
    pay_unit: unit,
    schedule,
    hours_per_week: hours,
    start_date: iso(start).slice(0, 10),
    children,
    ages,
    requirements,
    rank_score: round(faker.number.float({ min: 0, max: 10 }) + (type === 'SMB_JOB' ? 1 : 0), 4),
    posted_at: iso(posted),
    valid_through: iso(validThrough),
  })
}
