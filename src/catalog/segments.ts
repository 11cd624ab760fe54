import { JOB_SERVICES } from './jobs'
import { SERVICES } from './services'

// Segment landing pages (docs/pages.md, "Page types") and the visitor flow's segments. A segment
// names the care a visitor is after; the flow asks the product's buying-intent question for it.

export interface Segment {
  slug: string
  title: string
  intro: string
  /** The services that answer the segment, first the main one. */
  services: readonly string[]
  /** Adult care continues to the in-facility step of the flow. */
  adultCare: boolean
}

export const SEGMENTS: readonly Segment[] = [
  {
    slug: 'adult-care',
    title: 'Adult care',
    intro:
      'Help for adults who need support at home: companionship, personal care, meals, errands and getting to appointments.',
    services: ['senior-care', 'special-needs', 'housekeeping', 'personal-assistants'],
    adultCare: true,
  },
  {
    slug: 'caregivers',
    title: 'Caregivers',
    intro:
      'Find caregivers for every need: babysitters and nannies, senior caregivers, tutors, pet sitters and housekeepers.',
    services: ['babysitters', 'nannies', 'senior-care', 'tutors', 'pet-care', 'housekeeping'],
    adultCare: false,
  },
  {
    slug: 'post-surgery-care',
    title: 'Post-surgery care',
    intro:
      'Short-term help at home after an operation: mobility, medication reminders, meals and rides to follow-up visits.',
    services: ['senior-care', 'personal-assistants', 'housekeeping'],
    adultCare: true,
  },
  {
    slug: 'special-needs-adult-care',
    title: 'Special needs adult care',
    intro:
      'Caregivers experienced with adults with developmental, physical or cognitive disabilities, at home and in the community.',
    services: ['special-needs', 'senior-care'],
    adultCare: true,
  },
  {
    slug: 'respite-care',
    title: 'Respite care',
    intro:
      'A break for family caregivers: trusted people who step in for a few hours, a weekend or longer.',
    services: ['senior-care', 'special-needs', 'child-care'],
    adultCare: true,
  },
]

const bySlug = new Map(SEGMENTS.map((s) => [s.slug, s]))

export function findSegment(slug: string): Segment | undefined {
  return bySlug.get(slug)
}

/** Every segment the flow accepts: the landing segments and every service. */
export const FLOW_SEGMENTS: readonly string[] = [
  ...SEGMENTS.map((s) => s.slug),
  ...SERVICES.map((s) => s.slug),
]

/** Segments whose visitors go on to the in-facility step: adult and senior care. */
export function isAdultCare(segment: string): boolean {
  return findSegment(segment)?.adultCare ?? segment === 'senior-care'
}

/** The in-facility step's question: who needs care. */
export const WHO_NEEDS_CARE = [
  { value: 'self', label: 'Myself' },
  { value: 'parent', label: 'My parent' },
  { value: 'spouse', label: 'My spouse or partner' },
  { value: 'other', label: 'Someone else' },
] as const

/**
 * The provider entry's first question: the kind of work, one choice per job family
 * (src/catalog/jobs.ts).
 */
export const KINDS_OF_WORK: readonly { value: string; label: string }[] = JOB_SERVICES.map((j) => ({
  value: j.slug,
  label: j.title,
}))

/** The provider entry's second question: the product's four buying-intent values, worded for work. */
export const START_DATES = [
  { value: 'rightNow', label: 'Right away' },
  { value: 'withInWeek', label: 'Within a week' },
  { value: 'withInMonth', label: 'In 1-2 months' },
  { value: 'justBrowsing', label: 'Just looking for now' },
] as const
