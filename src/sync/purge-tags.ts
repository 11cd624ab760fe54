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

/**
 * The literal tags of a change: `always` purged when the message is applied, `whenNew` only when
 * the entity is new (or back after a removal). A stored profile, job page or their redirects
 * carry the entity's own tag, so a change to an entity the catalog has needs only that; its URLs'
 * tags reach what was stored before it existed: a 404, or a 410 after its removal.
 */
export interface LiteralTags {
  always: readonly string[]
  whenNew?: readonly string[]
}

/** The tags of a provider's own pages: its profile (and the cards naming it), its URLs. */
export function providerTags(id: number, nameSlug: string): LiteralTags {
  return {
    always: [TAG.provider(id), SITEMAP_TAG],
    whenNew: [TAG.url(`/p/${nameSlug}-${id}`), TAG.url(`/p/${id}`)],
  }
}

export function jobTags(id: number, titleSlug: string): LiteralTags {
  return {
    always: [TAG.job(id), SITEMAP_TAG],
    whenNew: [TAG.url(`/job/${titleSlug}-${id}`), TAG.url(`/job/${id}`)],
  }
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
// `t` (the row) and `c` (its city), each built by the tag and path builders the pages use.

/**
 * `build`'s result as a SQL string expression, its arguments the SQL expressions `columns`: each
 * argument is passed as `' || column || '`, so the builder's own text ends up quoted around it
 * (`'url:/' || t.value || '/' || c.slug`). A builder's own text has no quote, so none needs
 * escaping.
 */
function sqlTemplate(columns: readonly string[], build: (...args: string[]) => string): string {
  if (build(...columns.map(() => 'x')).includes("'")) throw new Error('a quote in a tag')
  let sql = `'${build(...columns.map((column) => `' || ${column} || '`))}'`
  if (sql.startsWith("'' || ")) sql = sql.slice("'' || ".length)
  if (sql.endsWith(" || ''")) sql = sql.slice(0, -" || ''".length)
  return sql
}

/** SQL: the provider service of a job service (t.value). */
const JOB_PROVIDER_SERVICE = `CASE t.value ${JOB_SERVICES.map((j) => `WHEN '${j.slug}' THEN '${j.service.slug}'`).join(' ')} END`
const COST_GUIDE_LIST = COST_GUIDE_SERVICES.map((s) => `'${s.slug}'`).join(', ')
const STATE = 'lower(c.state_code)'

/** SQL: `tag` when the touched service (t.value) has cost guides, else NULL (no tag). */
const ifCostGuide = (tag: string) => `CASE WHEN t.value IN (${COST_GUIDE_LIST}) THEN ${tag} END`

/**
 * How long the purge of an aggregate page may wait (docs/sync.md, "How stale each page may be"):
 * a state page, a national page and the sitemaps show thousands of entities, so under a steady
 * stream of changes an immediate purge would render them again every few seconds in every data
 * centre. Their purges wait in `pending_purges`, one row per tag, until the oldest waiting change
 * is this old, and are then recorded together: such a page is purged at most once per this
 * interval, and shows a change within it (plus the next batch or cron run, and an isolate's read).
 */
export const COALESCE_MS = 60_000

/** Literal tags that are coalesced: the sitemap files. */
const COALESCED_LITERALS: readonly string[] = [SITEMAP_TAG]

/** A change's literal tags by when they are purged: at once, at once if new, coalesced. */
export function literalPurges(tags: LiteralTags | readonly string[]) {
  const { always, whenNew = [] }: LiteralTags = 'always' in tags ? tags : { always: tags }
  return {
    atOnce: always.filter((tag) => !COALESCED_LITERALS.includes(tag)),
    whenNew,
    coalesced: always.filter((tag) => COALESCED_LITERALS.includes(tag)),
  }
}

interface TagSql {
  /** SQL of the tag. */
  sql: string
  /** Whether its purge waits to be coalesced (an aggregate page), rather than recorded at once. */
  coalesced?: true
}

/** Per touched kind but literal tags, the SQL expressions of the tags it purges. */
const TOUCHED_TAGS: Record<string, { tags: TagSql[] }> = {
  // A provider's rating moved: its profile and every card showing it.
  rating: { tags: [{ sql: sqlTemplate(['t.value'], (id) => TAG.provider(id)) }] },
  // A listing's count, rates or reviews moved: the directory, the city hub and the city's cost
  // guide at once; its state and national pages, the national cost guide and the sitemaps
  // coalesced.
  listing: {
    tags: [
      { sql: sqlTemplate(['t.value', 'c.slug'], (s, city) => TAG.url(cityPath(s, city))) },
      {
        sql: sqlTemplate(['t.value', STATE], (s, state) => TAG.url(statePath(s, state))),
        coalesced: true,
      },
      { sql: sqlTemplate(['t.value'], (s) => TAG.url(servicePath(s))), coalesced: true },
      { sql: sqlTemplate(['c.slug'], (city) => TAG.url(cityHubPath(city))) },
      { sql: `'${SITEMAP_TAG}'`, coalesced: true },
      {
        sql: ifCostGuide(
          sqlTemplate(['t.value', 'c.slug'], (s, city) => TAG.url(costPath(s, city))),
        ),
      },
      { sql: ifCostGuide(sqlTemplate(['t.value'], (s) => TAG.url(costPath(s)))), coalesced: true },
    ],
  },
  // Open jobs moved: the job listing, the directory's jobs module, the city hub; the sitemaps
  // coalesced.
  jobs: {
    tags: [
      { sql: sqlTemplate(['t.value', 'c.slug'], (j, city) => TAG.url(jobListingPath(j, city))) },
      {
        sql: sqlTemplate([JOB_PROVIDER_SERVICE, 'c.slug'], (s, city) => TAG.url(cityPath(s, city))),
      },
      { sql: sqlTemplate(['c.slug'], (city) => TAG.url(cityHubPath(city))) },
      { sql: `'${SITEMAP_TAG}'`, coalesced: true },
    ],
  },
  keyword: { tags: [{ sql: sqlTemplate(['t.value'], (k) => TAG.url(activitiesPath(k))) }] },
}

const MOST_TAGS = Math.max(...Object.values(TOUCHED_TAGS).map((k) => k.tags.length))

const caseOf = (value: (tag: TagSql) => string) =>
  `CASE ${Object.entries(TOUCHED_TAGS)
    .flatMap(([kind, { tags }]) =>
      tags.map((tag, i) => `WHEN t.kind = '${kind}' AND n.value = ${i} THEN ${value(tag)}`),
    )
    .join('\n      ')} END`

/**
 * SQL: every tag the rows of sync_touched name, each once, as `tag` and whether it is coalesced
 * (`coalesced`, 0 or 1): each row is paired with the numbers 0… and gives its kind's tag of that
 * number (one SELECT for all kinds, as D1 allows few terms in a compound one). A change's literal
 * tags are recorded by its own statements (src/sync/apply.ts), never through sync_touched.
 */
const TOUCHED_TAG_ROWS = `SELECT DISTINCT tag, coalesced FROM (
    SELECT ${caseOf((tag) => tag.sql)} AS tag,
           ${caseOf((tag) => (tag.coalesced ? '1' : '0'))} AS coalesced
      FROM sync_touched t LEFT JOIN cities c ON c.id = t.city_id
      JOIN json_each('${JSON.stringify([...Array(MOST_TAGS).keys()])}') n)
  WHERE tag IS NOT NULL`

/**
 * SQL recording, at `?1`, the purge of every page the rows of sync_touched name, in the same D1
 * batch as the change: the pages of the entities and their cities in the purge store
 * (src/cache/generations.ts) at once (once: a tag the change's own statements recorded is not
 * recorded again), and the aggregate pages' tags in `pending_purges`, one row
 * per tag (a tag already waiting keeps its oldest time, so its bound holds).
 */
export const PURGE_TOUCHED_SQL = [
  `INSERT INTO purges (at, tag) SELECT ?1, tag FROM (${TOUCHED_TAG_ROWS}) AS t WHERE NOT coalesced
     AND NOT EXISTS (SELECT 1 FROM purges WHERE at = ?1 AND tag = t.tag)`,
  `INSERT INTO pending_purges (tag, since) SELECT tag, ?1 FROM (${TOUCHED_TAG_ROWS}) WHERE coalesced
     ON CONFLICT (tag) DO NOTHING`,
]

/** SQL: the waiting purges whose oldest change is COALESCE_MS old at `?1`, recorded at `?1`. */
export const FLUSH_PENDING_SQL = [
  `INSERT INTO purges (at, tag) SELECT ?1, tag FROM pending_purges WHERE since <= ?1 - ${COALESCE_MS}`,
  `DELETE FROM pending_purges WHERE since <= ?1 - ${COALESCE_MS}`,
]

/**
 * Records the waiting purges that are due at `now` (the cron's step, so a quiet stream still
 * purges its aggregate pages); resolves to how many tags it purged.
 */
export async function flushPendingPurges(db: D1Database, now: number): Promise<number> {
  const [inserted] = await db.batch(FLUSH_PENDING_SQL.map((sql) => db.prepare(sql).bind(now)))
  return inserted?.meta.changes ?? 0
}
