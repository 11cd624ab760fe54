import { ACTIVITY_CATEGORIES } from '../catalog/activities'
import type { ActivityCategory } from '../catalog/activities'
import { isAdultCare } from '../catalog/segments'
import type { Service } from '../catalog/services'
import { SERVICES } from '../catalog/services'
import type { FlagName } from './definitions'

// What exists for a visitor, by flag: pages that answer 404 are never linked.

export type On = (name: FlagName) => boolean

/** The services with pages: the day-care directory only with the daycare directory flow. */
export function shownServices(on: On): readonly Service[] {
  return SERVICES.filter((s) => s.slug !== 'day-care' || on('daycareDirectoryFlow'))
}

export function isServiceShown(slug: string, on: On): boolean {
  return shownServices(on).some((s) => s.slug === slug)
}

/** The activity categories with pages: cooking only with the cooking category flag. */
export function shownCategories(on: On): readonly ActivityCategory[] {
  return ACTIVITY_CATEGORIES.filter((c) => c.slug !== 'cooking' || on('cookingCategory'))
}

/**
 * Whether a segment's calls to action skip the buying-intent question and go straight to the
 * new enrollment step (who needs care): adult care, with the adult care enrollment rollout.
 */
export function startsAtEnrollment(segment: string, on: On): boolean {
  return on('adultCareEnrollmentRollout') && isAdultCare(segment)
}
