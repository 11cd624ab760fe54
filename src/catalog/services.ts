import type { BusinessType, CareType, FilterType, Labelled, PayUnit, ServiceId } from './enums'
import { CHILD_AGE_GROUPS } from './enums'
import {
  CARE_GIGS,
  DAYCARE_AGE_GROUPS,
  DAYCARE_SCHEDULES,
  ERRAND_TASKS,
  HOUSEKEEPING_TASKS,
  PET_SERVICES,
  SENIOR_CARE_SCHEDULES,
  SENIOR_CARE_SERVICES,
  SPECIAL_NEEDS_AGES,
  SPECIAL_NEEDS_SKILLS,
  TUTORING_SUBJECTS,
} from './options'
import type { VerticalCode } from './verticals'

// The service slug table (docs/pages.md, "Page types"): slug → vertical, service id, care type, job
// slug, cost guide or not. Which filters a service offers follows the product's filter types.

export interface Service {
  slug: string
  /** "Babysitters": the plural people search for. */
  title: string
  /** "babysitter" / "babysitters": providers of the service, in sentences. */
  noun: string
  nouns: string
  vertical: VerticalCode
  serviceId: ServiceId
  careType: CareType
  businessType: BusinessType
  /** The job listing of the same work, which the directory's JOBS module links. */
  jobSlug: string | null
  costGuide: boolean
  payUnit: PayUnit
  filters: readonly FilterType[]
  /** The coded list behind the SERVICES / SUBJECT_AREA filter and the profile's services. */
  options: readonly Labelled[]
  /** The list behind the AGE / EXPERIENCE_WITH_AGES filter. */
  ages: readonly Labelled[]
  /** The list behind the SCHEDULE filter (daycare centres). */
  schedules: readonly Labelled[]
}

const CAREGIVER_FILTERS = [
  'DISTANCE',
  'PAY_RATE',
  'YEARS_OF_EXPERIENCE',
  'AVAILABILITY',
] as const satisfies readonly FilterType[]

const none: readonly Labelled[] = []

function service(s: Omit<Service, 'businessType' | 'schedules'> & Partial<Service>): Service {
  return { businessType: 'CAREGIVER', schedules: none, ...s }
}

export const SERVICES: readonly Service[] = [
  service({
    slug: 'child-care',
    title: 'Child care',
    noun: 'child care provider',
    nouns: 'child care providers',
    vertical: 'CHILDCARE',
    serviceId: 'childCare',
    careType: 'CHILD_CARE',
    jobSlug: 'child-care-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'EXPERIENCE_WITH_AGES'],
    options: none,
    ages: CHILD_AGE_GROUPS,
  }),
  service({
    slug: 'babysitters',
    title: 'Babysitters',
    noun: 'babysitter',
    nouns: 'babysitters',
    vertical: 'CHILDCARE',
    serviceId: 'babysitter',
    careType: 'CHILD_CARE',
    jobSlug: 'babysitting-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'EXPERIENCE_WITH_AGES'],
    options: none,
    ages: CHILD_AGE_GROUPS,
  }),
  service({
    slug: 'nannies',
    title: 'Nannies',
    noun: 'nanny',
    nouns: 'nannies',
    vertical: 'CHILDCARE',
    serviceId: 'nanny',
    careType: 'CHILD_CARE',
    jobSlug: 'nanny-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'EXPERIENCE_WITH_AGES'],
    options: none,
    ages: CHILD_AGE_GROUPS,
  }),
  service({
    slug: 'senior-care',
    title: 'Senior care',
    noun: 'senior caregiver',
    nouns: 'senior caregivers',
    vertical: 'SENIRCARE',
    serviceId: 'seniorCare',
    careType: 'SENIOR_CARE',
    jobSlug: 'senior-care-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES', 'SCHEDULE'],
    options: SENIOR_CARE_SERVICES,
    ages: none,
    schedules: SENIOR_CARE_SCHEDULES,
  }),
  service({
    slug: 'housekeeping',
    title: 'Housekeepers',
    noun: 'housekeeper',
    nouns: 'housekeepers',
    vertical: 'HOUSEKEEP',
    serviceId: 'housekeeping',
    careType: 'HOUSEKEEPING',
    jobSlug: 'housekeeping-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES'],
    options: HOUSEKEEPING_TASKS,
    ages: none,
  }),
  service({
    slug: 'tutors',
    title: 'Tutors',
    noun: 'tutor',
    nouns: 'tutors',
    vertical: 'TUTORINGX',
    serviceId: 'tutoring',
    careType: 'TUTORING',
    jobSlug: 'tutoring-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SUBJECT_AREA'],
    options: TUTORING_SUBJECTS,
    ages: none,
  }),
  service({
    slug: 'pet-care',
    title: 'Pet care',
    noun: 'pet caregiver',
    nouns: 'pet caregivers',
    vertical: 'PETCAREXX',
    serviceId: 'petCare',
    careType: 'PET_CARE',
    jobSlug: 'pet-care-jobs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES'],
    options: PET_SERVICES,
    ages: none,
  }),
  service({
    slug: 'personal-assistants',
    title: 'Personal assistants',
    noun: 'personal assistant',
    nouns: 'personal assistants',
    vertical: 'CAREGIGSX',
    serviceId: 'careGigs',
    careType: 'CARE_GIGS',
    jobSlug: 'care-gigs',
    costGuide: true,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES'],
    options: CARE_GIGS,
    ages: none,
  }),
  service({
    slug: 'special-needs',
    title: 'Special needs care',
    noun: 'special needs caregiver',
    nouns: 'special needs caregivers',
    vertical: 'SPCLNEEDS',
    serviceId: 'specialNeeds',
    careType: 'SPECIAL_NEEDS',
    jobSlug: 'special-needs-jobs',
    costGuide: false,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES', 'AGE'],
    options: SPECIAL_NEEDS_SKILLS,
    ages: SPECIAL_NEEDS_AGES,
  }),
  service({
    slug: 'day-care',
    title: 'Daycare centers',
    noun: 'daycare center',
    nouns: 'daycare centers',
    vertical: 'CHILDCARE',
    serviceId: 'childCareLocation',
    careType: 'CHILD_CARE',
    businessType: 'SMB',
    jobSlug: null,
    costGuide: false,
    payUnit: 'wk',
    filters: ['DISTANCE', 'AGE', 'SCHEDULE'],
    options: none,
    ages: DAYCARE_AGE_GROUPS,
    schedules: DAYCARE_SCHEDULES,
  }),
  service({
    slug: 'au-pairs',
    title: 'Au pairs',
    noun: 'au pair',
    nouns: 'au pairs',
    vertical: 'AU_PAIR',
    serviceId: 'auPair',
    careType: 'AU_PAIR',
    // The product has no au pair job family (no job service id, no job plan): no job listing.
    jobSlug: null,
    costGuide: false,
    // An au pair is paid a weekly stipend, not by the hour; the hourly pay-rate bands would not
    // fit it, so au pairs filter by experience, availability and the ages they have cared for.
    payUnit: 'wk',
    filters: ['DISTANCE', 'YEARS_OF_EXPERIENCE', 'AVAILABILITY', 'EXPERIENCE_WITH_AGES'],
    options: none,
    ages: CHILD_AGE_GROUPS,
  }),
  service({
    slug: 'errands',
    title: 'Errand runners',
    noun: 'errand runner',
    nouns: 'errand runners',
    vertical: 'ERRANDS',
    serviceId: 'errands',
    careType: 'CARE_GIGS',
    // The product has no errands job family: errands are posted as care gigs (CGS001, "Errands
    // and shopping"), so the directory's JOBS module is the care gigs listing.
    jobSlug: 'care-gigs',
    costGuide: false,
    payUnit: 'hr',
    filters: [...CAREGIVER_FILTERS, 'SERVICES'],
    options: ERRAND_TASKS,
    ages: none,
  }),
]

const bySlug = new Map(SERVICES.map((s) => [s.slug, s]))

export function findService(slug: string): Service | undefined {
  return bySlug.get(slug)
}

/** Whether families looking for this service look after children: they are shown camps too. */
export function caresForChildren(service: Service): boolean {
  return service.careType === 'CHILD_CARE' || service.careType === 'AU_PAIR'
}
