import { PAGE_TYPES } from '../catalog/enums'
import type { Databases } from '../data/databases'
import { SERVICES } from '../catalog/services'
import { entityId } from '../urls/paths'
import type { PurgeRequest } from './purge'
import { purgePath, purgeRequestSchema, purgeTags } from './purge'
import type { TagKind } from './tags'
import { TAG, tagProblem } from './tags'

/** The ways the console names a purge: one field each, as a new ops person would think of it. */
export const PURGE_BY = ['url', 'provider', 'job', 'city', 'page', 'tag'] as const
export type PurgeBy = (typeof PURGE_BY)[number]

/** The page kinds a tag of each kind reaches (docs/caching.md, "Tags"). */
export const TAG_PAGES: Readonly<Record<TagKind, string>> = {
  url: 'that one page, every query form and flag variant of it',
  service:
    'its directories, state and national pages, job listings and pages, profiles, cost guides',
  city: 'its directories, job listings, job pages, profiles, city hub and city cost guides',
  state: 'its state pages',
  provider: 'the profile, and every directory and state page showing its card',
  job: 'the job page',
  keyword: 'the activities page of the keyword',
  category: 'the activities pages of the category',
  segment: 'the segment page',
  page: 'every page of that type',
}

/**
 * The purge request the console's form names (`by`, `value`), in the same shape as the endpoint's
 * body and the CLI's flags, or why it names none. A provider or job is named by its id or by its
 * page's URL pasted whole; a URL must be one of this site's.
 */
export function consolePurge(
  by: string,
  value: string,
  origin: string,
): { request: PurgeRequest } | { error: string } {
  const v = value.trim()
  if (!v) return { error: 'name something to purge' }
  if (by === 'url') return checked({ urls: [v], tags: [] }, origin)
  if (by === 'provider' || by === 'job') {
    const id = /^[0-9]{1,15}$/.test(v) ? Number(v) : idFromUrl(v, by, origin)
    if (id === null)
      return {
        error: `neither a ${by} id nor the URL of a ${by === 'job' ? 'job' : 'profile'} on this site`,
      }
    return checked({ urls: [], tags: [TAG[by](id)] }, origin)
  }
  if (by === 'city') {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*-[a-z][a-z]$/i.test(v))
      return { error: 'a city is its slug, such as atlanta-ga' }
    return checked({ urls: [], tags: [TAG.city(v.toLowerCase())] }, origin)
  }
  if (by === 'page') {
    if (!(PAGE_TYPES as readonly string[]).includes(v) && v !== 'home' && v !== 'sitemap')
      return { error: `not a page type: one of ${[...PAGE_TYPES, 'home', 'sitemap'].join(', ')}` }
    return checked({ urls: [], tags: [TAG.page(v)] }, origin)
  }
  if (by === 'tag') {
    const problem = tagProblem(v)
    return problem ? { error: problem } : checked({ urls: [], tags: [v] }, origin)
  }
  return { error: `purge by one of ${PURGE_BY.join(', ')}` }
}

/** The request, if the endpoint would take it: the console refuses what the endpoint refuses. */
function checked(
  request: PurgeRequest,
  origin: string,
): { request: PurgeRequest } | { error: string } {
  const parsed = purgeRequestSchema.safeParse(request)
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join('; ') }
  const resolved = purgeTags(parsed.data, origin)
  return 'error' in resolved ? resolved : { request: parsed.data }
}

function idFromUrl(url: string, by: 'provider' | 'job', origin: string): number | null {
  const path = purgePath(url, origin)
  const m = path ? new RegExp(`^/${by === 'provider' ? 'p' : 'job'}/([^/]+)$`).exec(path) : null
  return m?.[1] ? entityId(m[1]) : null
}

/** One tag of a preview: what it reaches and about how many stored pages may carry it. */
export interface TagPreview {
  tag: string
  pages: string
  /** An upper estimate from the catalog (pages that exist; not all are stored); null: none made. */
  estimate: number | null
}

/**
 * What a purge would reach, before it is made: each tag it bumps, the page kinds it covers and an
 * estimate, from the catalog, of how many pages carry it. Each estimate is one indexed read on
 * control (its directory, cities and stats copies), a provider's two: the directory, then its
 * shard's listings.
 */
export async function previewPurge(
  databases: Pick<Databases, 'control' | 'shards'>,
  tags: readonly string[],
): Promise<TagPreview[]> {
  return Promise.all(
    tags.map(async (tag) => {
      const kind = tag.slice(0, tag.indexOf(':')) as TagKind
      return {
        tag,
        pages: TAG_PAGES[kind],
        estimate: await estimate(databases, kind, tag.slice(kind.length + 1)),
      }
    }),
  )
}

async function estimate(
  { control, shards }: Pick<Databases, 'control' | 'shards'>,
  kind: TagKind,
  value: string,
): Promise<number | null> {
  const count = async (sql: string, ...binds: (string | number)[]) =>
    countOn(control, sql, ...binds)
  switch (kind) {
    case 'url':
    case 'segment':
    case 'keyword':
      return 1
    case 'job':
      return count('SELECT COUNT(*) AS n FROM job_directory WHERE id = ?', Number(value))
    case 'provider': {
      // The profile, and a directory and a state page for each service it offers.
      const placed = await control
        .prepare('SELECT shard FROM provider_directory WHERE id = ?')
        .bind(Number(value))
        .first<{ shard: number }>()
      const shard = placed && shards[placed.shard]
      const services = shard
        ? await countOn(
            shard,
            'SELECT COUNT(*) AS n FROM provider_services WHERE provider_id = ?',
            Number(value),
          )
        : 0
      return services === 0 ? 0 : 1 + 2 * services
    }
    case 'city':
      return count(
        `SELECT 1
           + (SELECT COUNT(*) + COALESCE(SUM(providers), 0) FROM service_city_stats WHERE city_id = c.id)
           + (SELECT COUNT(*) + COALESCE(SUM(jobs), 0) FROM job_city_stats WHERE city_id = c.id) AS n
         FROM cities c WHERE c.slug = ?`,
        value,
      )
    case 'state':
      return SERVICES.length
    case 'service':
      return count(
        `SELECT 1 + COUNT(*) + COALESCE(SUM(providers), 0) AS n FROM service_city_stats WHERE service = ?`,
        value,
      )
    default:
      return null
  }
}

/** The count `sql` reads on `db`. */
async function countOn(db: D1Database, sql: string, ...binds: (string | number)[]) {
  return Number(
    (
      await db
        .prepare(sql)
        .bind(...binds)
        .first<{ n: number | null }>()
    )?.n ?? 0,
  )
}
