import { COST_GUIDE_SERVICES } from '../catalog/cost-guides'
import { PAGE_TYPES } from '../catalog/enums'
import { JOB_SERVICES } from '../catalog/jobs'
import { SERVICES } from '../catalog/services'
import { TAG } from '../cache/tags'
import {
  activitiesPath,
  cityHubPath,
  cityPath,
  costPath,
  jobListingPath,
  servicePath,
  statePath,
} from '../urls/paths'

// What a catalog change purges (docs/sync.md, "What a change purges"): every tag is built by the
// same tag and path builders the pages are tagged and routed with, never typed out again here.

/** Every sitemap file: they list entities and their lastmod. */
export const SITEMAP_TAG = TAG.page('sitemap')

/** The tags of a provider's own pages: its profile (and the cards naming it), its URLs. */
export function providerTags(id: number, nameSlug: string): string[] {
  return [TAG.provider(id), TAG.url(`/p/${nameSlug}-${id}`), TAG.url(`/p/${id}`), SITEMAP_TAG]
}

export function jobTags(id: number, titleSlug: string): string[] {
  return [TAG.job(id), TAG.url(`/job/${titleSlug}-${id}`), TAG.url(`/job/${id}`), SITEMAP_TAG]
}

/** Every page of a city: before the city was added, any of them was a (stored) 404. */
export function cityTags(slug: string): string[] {
  return [
    TAG.url(cityHubPath(slug)),
    ...SERVICES.map((s) => TAG.url(cityPath(s.slug, slug))),
    ...JOB_SERVICES.map((j) => TAG.url(jobListingPath(j.slug, slug))),
    ...COST_GUIDE_SERVICES.map((s) => TAG.url(costPath(s.slug, slug))),
    SITEMAP_TAG,
  ]
}

/** Every page type's tag: purging them all purges every stored page (after a bulk import). */
export const ALL_PAGES_TAGS = [...PAGE_TYPES, 'other', 'sitemap'].map((type) => TAG.page(type))

// The tags of what a sync batch touched (sync_touched rows, src/sync/apply.ts), as SQL over
// `t` (the row) and `c` (its city): a path builder is called with markers in place of its
// arguments, and each marker becomes the SQL column it stands for.

const MARK = '\u0001'

/** `build`'s result as a SQL string expression, its arguments taken from `columns`. */
function sqlTemplate(columns: readonly string[], build: (...args: string[]) => string): string {
  const built = build(...columns.map((_, i) => `${MARK}${i}${MARK}`))
  const parts = built.split(MARK)
  return parts
    .map((part, i) => (i % 2 ? columns[Number(part)] : `'${part.replaceAll("'", "''")}'`))
    .filter((part) => part !== "''")
    .join(' || ')
}

/** SQL: the provider service of a job service (t.value). */
const JOB_PROVIDER_SERVICE = `CASE t.value ${JOB_SERVICES.map((j) => `WHEN '${j.slug}' THEN '${j.service.slug}'`).join(' ')} END`
const COST_GUIDE_LIST = COST_GUIDE_SERVICES.map((s) => `'${s.slug}'`).join(', ')
const STATE = 'lower(c.state_code)'

/** SQL: `tag` when the touched service (t.value) has cost guides, else NULL (no tag). */
const ifCostGuide = (tag: string) => `CASE WHEN t.value IN (${COST_GUIDE_LIST}) THEN ${tag} END`

/** Per touched kind but literal tags, the SQL expressions of the tags it purges. */
const TOUCHED_TAGS: Record<string, { tags: string[] }> = {
  // A provider's rating moved: its profile and every card showing it.
  rating: { tags: [sqlTemplate(['t.value'], (id) => TAG.provider(id))] },
  // A listing's count, rates or reviews moved: the directory, its state and national pages, the
  // city hub, and in a service with cost guides the city's guide and the national one.
  listing: {
    tags: [
      sqlTemplate(['t.value', 'c.slug'], (s, city) => TAG.url(cityPath(s, city))),
      sqlTemplate(['t.value', STATE], (s, state) => TAG.url(statePath(s, state))),
      sqlTemplate(['t.value'], (s) => TAG.url(servicePath(s))),
      sqlTemplate(['c.slug'], (city) => TAG.url(cityHubPath(city))),
      `'${SITEMAP_TAG}'`,
      ifCostGuide(sqlTemplate(['t.value', 'c.slug'], (s, city) => TAG.url(costPath(s, city)))),
      ifCostGuide(sqlTemplate(['t.value'], (s) => TAG.url(costPath(s)))),
    ],
  },
  // Open jobs moved: the job listing, the directory's jobs module, the city hub.
  jobs: {
    tags: [
      sqlTemplate(['t.value', 'c.slug'], (j, city) => TAG.url(jobListingPath(j, city))),
      sqlTemplate([JOB_PROVIDER_SERVICE, 'c.slug'], (s, city) => TAG.url(cityPath(s, city))),
      sqlTemplate(['c.slug'], (city) => TAG.url(cityHubPath(city))),
      `'${SITEMAP_TAG}'`,
    ],
  },
  keyword: { tags: [sqlTemplate(['t.value'], (k) => TAG.url(activitiesPath(k)))] },
}

const MOST_TAGS = Math.max(...Object.values(TOUCHED_TAGS).map((k) => k.tags.length))

/**
 * SQL recording, at `?1`, the purge of every tag the rows of sync_touched name, each once: one
 * INSERT into the purge store (src/cache/generations.ts), in the same D1 batch as the change.
 * Literal tags are taken as they are; every other row is paired with the numbers 0… and gives
 * its kind's tag of that number (one SELECT for all kinds, as D1 allows few terms in a compound
 * one).
 */
export const PURGE_TOUCHED_SQL = `INSERT INTO purges (at, tag)
  SELECT ?1, value FROM sync_touched WHERE kind = 'tag'
  UNION
  SELECT ?1, tag FROM (
    SELECT CASE ${Object.entries(TOUCHED_TAGS)
      .flatMap(([kind, { tags }]) =>
        tags.map((tag, i) => `WHEN t.kind = '${kind}' AND n.value = ${i} THEN ${tag}`),
      )
      .join('\n      ')} END AS tag
      FROM sync_touched t LEFT JOIN cities c ON c.id = t.city_id
      JOIN json_each('${JSON.stringify([...Array(MOST_TAGS).keys()])}') n
     WHERE t.kind <> 'tag')
  WHERE tag IS NOT NULL`
