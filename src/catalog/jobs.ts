import type { Labelled, ServiceId } from './enums'
import type { Service } from './services'
import { findService } from './services'

// Job service slugs (docs/pages.md, "Page types") and the product's job enumerations: schedules
// ("Any, Full time, Part time, One time, plus recurring care"), who posted (the product's search
// targets SEEKER_JOB and SMB_JOB), hours and requirements.

export interface JobService {
  slug: string
  /** "Babysitting jobs" */
  title: string
  /** The provider directory of the same care. */
  service: Service
  serviceId: ServiceId
}

function job(slug: string, title: string, service: string, serviceId: ServiceId): JobService {
  const s = findService(service)
  if (!s) throw new Error(`no service ${service}`)
  return { slug, title, service: s, serviceId }
}

export const JOB_SERVICES: readonly JobService[] = [
  job('child-care-jobs', 'Child care jobs', 'child-care', 'childCareJob'),
  job('babysitting-jobs', 'Babysitting jobs', 'babysitters', 'childCareJob'),
  job('nanny-jobs', 'Nanny jobs', 'nannies', 'childCareJob'),
  job('senior-care-jobs', 'Senior care jobs', 'senior-care', 'seniorCareJob'),
  job('housekeeping-jobs', 'Housekeeping jobs', 'housekeeping', 'housekeepingJob'),
  job('tutoring-jobs', 'Tutoring jobs', 'tutors', 'tutoringJob'),
  job('pet-care-jobs', 'Pet care jobs', 'pet-care', 'petCareJob'),
  job('care-gigs', 'Care gigs', 'personal-assistants', 'careGigsJob'),
  job('special-needs-jobs', 'Special needs jobs', 'special-needs', 'specialNeedsJob'),
]

const bySlug = new Map(JOB_SERVICES.map((j) => [j.slug, j]))

export function findJobService(slug: string): JobService | undefined {
  return bySlug.get(slug)
}

export type JobSchedule = 'FULL_TIME' | 'PART_TIME' | 'ONE_TIME' | 'RECURRING'

export const JOB_SCHEDULES: readonly Labelled<JobSchedule>[] = [
  { code: 'FULL_TIME', slug: 'full-time', label: 'Full time' },
  { code: 'PART_TIME', slug: 'part-time', label: 'Part time' },
  { code: 'ONE_TIME', slug: 'one-time', label: 'One time' },
  { code: 'RECURRING', slug: 'recurring', label: 'Recurring care' },
]

export type JobType = 'SEEKER_JOB' | 'SMB_JOB'

export const JOB_TYPES: readonly Labelled<JobType>[] = [
  { code: 'SEEKER_JOB', slug: 'family', label: 'Posted by a family' },
  { code: 'SMB_JOB', slug: 'business', label: 'Posted by a business' },
]

/**
 * Hours per week, as half-open bands: from `from` up to but not including `below` (none: no
 * upper end), so a job of 20 hours a week is in 20–30 only and every job is in exactly one band.
 */
export const HOURS_BANDS = [
  { value: 'under-10', label: 'Under 10 hours a week', from: 0, below: 10 },
  { value: '10-20', label: '10–20 hours a week', from: 10, below: 20 },
  { value: '20-30', label: '20–30 hours a week', from: 20, below: 30 },
  { value: '30-plus', label: '30+ hours a week', from: 30, below: null },
] as const

export const JOB_REQUIREMENTS: readonly Labelled[] = [
  {
    code: 'BACKGROUND_CHECK',
    slug: 'background-check',
    label: 'Willing to have a background check',
  },
  { code: 'CPR_FIRST_AID', slug: 'cpr-first-aid', label: 'CPR and first aid training' },
  { code: 'OWN_CAR', slug: 'own-car', label: 'Has a reliable car' },
  { code: 'NON_SMOKER', slug: 'non-smoker', label: 'Non-smoker' },
  { code: 'COMFORTABLE_WITH_PETS', slug: 'comfortable-with-pets', label: 'Comfortable with pets' },
  { code: 'VACCINATED', slug: 'vaccinated', label: 'Vaccinated' },
  { code: 'SPEAKS_SPANISH', slug: 'speaks-spanish', label: 'Speaks Spanish' },
  { code: 'REFERENCES', slug: 'references', label: 'References' },
]
