import { ACTIVITY_CATEGORIES } from '../catalog/activities'
import type { Service } from '../catalog/services'
import { findActivityCounts } from '../data/activities'
import type { Db } from '../data/db'
import type { On } from '../flags/visibility'
import { shownCategories } from '../flags/visibility'
import { worthListing } from '../seo/indexability'
import { activitiesPath } from '../urls/paths'
import type { LinkItem } from '../views/parts/link-list'

/** The RESOURCES module's camps and activities: the categories worth a visit. */
export async function campLinks(db: Db, on: On): Promise<LinkItem[]> {
  const counts = await findActivityCounts(
    db,
    ACTIVITY_CATEGORIES.map((category) => category.slug),
  )
  return campLinksOf(counts, on)
}

/** The same links from counts a page has read with its other reads. */
export function campLinksOf(counts: ReadonlyMap<string, number>, on: On): LinkItem[] {
  return shownCategories(on)
    .filter((category) => worthListing(counts.get(category.slug) ?? 0))
    .map((category) => ({
      href: activitiesPath(category.slug),
      text: category.slug === 'stem' ? 'STEM' : category.label,
    }))
}

/** Whether families looking for this service look after children: they are shown camps too. */
export function caresForChildren(service: Service): boolean {
  return service.careType === 'CHILD_CARE' || service.careType === 'AU_PAIR'
}
