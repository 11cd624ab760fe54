import { shownCategories } from '../flags/visibility'
import { activitiesPath } from '../urls/paths'
import { worthListing } from './indexability'

/** A link of the camps and activities module. */
export interface CampLink {
  href: string
  text: string
}

/**
 * The categories the module may name: those that exist whatever the flags. A category a flag
 * turns off (cooking) is left out rather than read from the flags, or every page carrying the
 * module would be stored once per value of that flag.
 */
const UNFLAGGED_CATEGORIES = shownCategories(() => false)

/** The keywords whose counts the module needs, for a page that reads them with its other reads. */
export const CAMP_KEYWORDS = UNFLAGGED_CATEGORIES.map((category) => category.slug)

/**
 * The RESOURCES module's camps and activities: the categories worth a visit, from the counts of
 * `CAMP_KEYWORDS` a page has read (with its other reads, where it can).
 */
export function campLinksOf(counts: ReadonlyMap<string, number>): CampLink[] {
  return UNFLAGGED_CATEGORIES.filter((category) =>
    worthListing(counts.get(category.slug) ?? 0),
  ).map((category) => ({
    href: activitiesPath(category.slug),
    text: category.slug === 'stem' ? 'STEM' : category.label,
  }))
}
