import type { Service } from '../catalog/services'
import { findActivityCounts } from '../data/activities'
import type { Db } from '../data/db'
import { shownCategories } from '../flags/visibility'
import { worthListing } from '../seo/indexability'
import { activitiesPath } from '../urls/paths'
import type { LinkItem } from '../views/parts/link-list'

/**
 * The categories the module may name: those that exist whatever the flags. A category a flag
 * turns off (cooking) is left out rather than read from the flags, or every page carrying the
 * module would be stored once per value of that flag.
 */
const UNFLAGGED_CATEGORIES = shownCategories(() => false)

/** The RESOURCES module's camps and activities: the categories worth a visit. */
export async function campLinks(db: Db): Promise<LinkItem[]> {
  return campLinksOf(await findActivityCounts(db, CAMP_KEYWORDS))
}

/** The keywords whose counts the module needs, for a page that reads them with its other reads. */
export const CAMP_KEYWORDS = UNFLAGGED_CATEGORIES.map((category) => category.slug)

/** The same links from counts a page has read with its other reads. */
export function campLinksOf(counts: ReadonlyMap<string, number>): LinkItem[] {
  return UNFLAGGED_CATEGORIES.filter((category) =>
    worthListing(counts.get(category.slug) ?? 0),
  ).map((category) => ({
    href: activitiesPath(category.slug),
    text: category.slug === 'stem' ? 'STEM' : category.label,
  }))
}

/** Whether families looking for this service look after children: they are shown camps too. */
export function caresForChildren(service: Service): boolean {
  return service.careType === 'CHILD_CARE' || service.careType === 'AU_PAIR'
}
