import { ACTIVITY_AGE_GROUPS } from '../catalog/activities'
import type { Labelled } from '../catalog/enums'
import { BADGES, TRAITS, WEEKDAYS } from '../catalog/enums'
import { findJobService, JOB_REQUIREMENTS } from '../catalog/jobs'
import { citySlug } from '../catalog/cities'
import { slugOf } from '../catalog/options'
import { findService } from '../catalog/services'
import { TAG } from '../cache/tags'
import { statsStatements } from '../data/refresh-stats'
import { buildGate } from '../gate/build-gate'
import { saveGate } from '../gate/gate-store'
import type { CatalogMessage, Job, MessageKind, MessageOf } from './messages'
import { entityKey } from './messages'
import {
  ALL_PAGES_TAGS,
  cityTags,
  FLUSH_PENDING_SQL,
  jobTags,
  literalPurges,
  providerTags,
  PURGE_TOUCHED_SQL,
} from './purge-tags'
import type { LiteralTags } from './purge-tags'

// Applying catalog changes (docs/sync.md, "Applying a batch"): every message becomes a few
// statements, and a whole batch runs as one D1 batch, a single transaction. Each statement that
// changes a row is guarded by the entity's version in sync_versions, and the version is written
// after them: a message whose version is not newer than the stored one changes nothing, so replays and
// messages out of order end on the rows the newest versions say. What the changes touched is
// listed in sync_touched, and the batch ends by re-aggregating exactly that, recording the purge
// of exactly the pages showing it, and emptying the list: the purge cannot be lost to a crash
// between the write and the purge, as both are one transaction.

export interface ApplyOptions {
  /**
   * Whether the batch also re-aggregates the stats it touched, recomputes ratings, logs new ids
   * for the gate and records purges (default). A bulk import turns it off and calls
   * `refreshAfterImport` once at the end.
   */
  derive?: boolean
  /** The moment the change is applied: purge times, and which jobs are open. */
  now?: Date
}

/**
 * The order messages of one batch are applied in: what others refer to first. A provider's
 * removal comes before its listings and reviews, which it makes moot, as if it had come first
 * in an earlier batch. For one entity the order is irrelevant: only its newest message is applied.
 */
const ORDER: Record<MessageKind, number> = {
  'city.added': 0,
  'provider.removed': 1,
  'provider.upserted': 2,
  'provider-service.offered': 3,
  'provider-service.withdrawn': 3,
  'review.added': 4,
  'review.removed': 4,
  'job.upserted': 5,
  'job.closed': 5,
  'activity.upserted': 6,
  'activity.removed': 6,
}

/** The newest message of each entity (the first seen of equal versions), in the applying order. */
export function newestPerEntity(messages: readonly CatalogMessage[]): CatalogMessage[] {
  const newest = new Map<string, CatalogMessage>()
  for (const message of messages) {
    const key = entityKey(message)
    const kept = newest.get(key)
    if (!kept || message.version > kept.version) newest.set(key, message)
  }
  return [...newest.values()].sort((a, b) => ORDER[a.kind] - ORDER[b.kind])
}

type Param = string | number | null

/** An instant as the catalog stores it: ISO 8601 in UTC, to the second. */
function instant(value: string): string {
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function maskOf(codes: readonly string[], list: readonly Labelled[]): number {
  return codes.reduce((mask, code) => mask | (2 ** list.findIndex((item) => item.code === code)), 0)
}

/** A D1 string or row is at most 2 MB: one statement's rows stay well under it. */
const MAX_ROWS_BYTES = 1_000_000

/**
 * SQL run once per row of a JSON array (the rows of `json_each(?1)` as `p`, where a template says
 * `{rows}`; each term of a compound SELECT says it again): its `?N` is the row's Nth value. Every
 * message of a kind makes the same statements, so a batch runs each of them once for all its
 * messages of that kind, whatever their number: a batch is a few statements per kind, not a few
 * per message (D1 limits the statements of an invocation). The rows are materialized first: read
 * straight from `json_each`, a row is rendered to JSON text again for each of its values (about
 * half of the statement's time for a provider's 26 values).
 */
const compiled = new Map<string, string>()
function perRow(sql: string): string {
  let out = compiled.get(sql)
  if (out === undefined) {
    out =
      'WITH batch_rows (value) AS MATERIALIZED (SELECT value FROM json_each(?1)) ' +
      sql
        .replace(/\?(\d+)/g, (_, n: string) => `(p.value ->> ${Number(n) - 1})`)
        .replaceAll('{rows}', 'batch_rows AS p')
    compiled.set(sql, out)
  }
  return out
}

/** SQL writing the versions of the messages (`?3`: whether it removed the entity) newer. */
const VERSIONS = `INSERT INTO sync_versions (key, version, removed) SELECT ?1, ?2, ?3 FROM {rows} WHERE true
  ON CONFLICT (key) DO UPDATE SET version = excluded.version, removed = excluded.removed
  WHERE excluded.version > sync_versions.version`

/**
 * A batch's statements: each message adds its kind's statements, each with its values (`?1` the
 * key, `?2` the version, then its own), guarded by its version; the statements of one kind are
 * then run once over the values of all its messages, in the order the first message made them.
 * Versions are written after the statements of every message before, by `versions()`.
 */
class Statements {
  /** By kind and the statement's place among its message's. */
  readonly #groups = new Map<string, { sql: string; rows: Param[][] }>()
  #versions: Param[][] = []
  #index = 0
  constructor(
    readonly db: D1Database,
    readonly derive: boolean,
    /** The purges' time. */
    readonly at: number,
  ) {}

  /** The next message's statements start. */
  begin(): void {
    this.#index = 0
  }

  /** Adds `sql`, its `?1` and `?2` bound to the message's key and version, then `params`. */
  add(message: CatalogMessage, sql: string, ...params: Param[]): void {
    const place = `${message.kind} ${this.#index++}`
    let group = this.#groups.get(place)
    if (!group) this.#groups.set(place, (group = { sql, rows: [] }))
    // Every message of a kind makes the same statements in the same order.
    else if (group.sql !== sql) throw new Error(`${place}: another statement than its kind's`)
    group.rows.push([entityKey(message), message.version, ...params])
  }

  /** Adds `sql` only when the batch derives. */
  derived(message: CatalogMessage, sql: string, ...params: Param[]): void {
    if (this.derive) this.add(message, sql, ...params)
  }

  /**
   * Lists what the message touches, when it is newer and the batch derives: the rows of `terms`
   * (`touched(...)`, their values from `?4` on), before and after the change alike, in one
   * statement that runs before the message's own; and records the purge of its literal `tags`
   * (src/sync/purge-tags.ts): at once, at once only when the entity is new, or coalesced. What
   * each tag list holds depends on the kind alone, so every message of a kind makes the same
   * statements.
   */
  touched(
    message: CatalogMessage,
    tags: LiteralTags | readonly string[],
    terms: readonly string[],
    ...params: Param[]
  ): void {
    if (terms.length)
      this.derived(
        message,
        `INSERT OR IGNORE INTO sync_touched (kind, value, city_id) ${terms.join(' UNION ALL ')}`,
        null,
        ...params,
      )
    const { atOnce, whenNew, coalesced } = literalPurges(tags)
    if (atOnce.length) this.derived(message, PURGE_LITERAL, this.at, JSON.stringify(atOnce))
    if (whenNew.length) this.derived(message, PURGE_IF_NEW, this.at, JSON.stringify(whenNew))
    if (coalesced.length)
      this.derived(message, COALESCE_LITERAL, this.at, JSON.stringify(coalesced))
  }

  /**
   * Writes the message's version (and whether it removed the entity), when it is newer: once
   * every statement guarded by it has run, at the next `versions()`.
   */
  version(message: CatalogMessage, removed: boolean): void {
    this.#versions.push([entityKey(message), message.version, removed ? 1 : 0])
  }

  /** The versions of the messages added so far, written in one statement after theirs. */
  versions(): void {
    if (!this.#versions.length) return
    this.#groups.set(`versions ${this.#groups.size}`, { sql: VERSIONS, rows: this.#versions })
    this.#versions = []
  }

  /** Each statement once over its rows (in parts of at most MAX_ROWS_BYTES). */
  get list(): D1PreparedStatement[] {
    const list: D1PreparedStatement[] = []
    for (const { sql, rows } of this.#groups.values()) {
      const statement = this.db.prepare(perRow(sql))
      let part: string[] = []
      let bytes = 0
      const flush = () => {
        if (part.length) list.push(statement.bind(`[${part.join(',')}]`))
        part = []
        bytes = 0
      }
      for (const row of rows) {
        const json = JSON.stringify(row)
        if (bytes + json.length > MAX_ROWS_BYTES) flush()
        part.push(json)
        bytes += json.length + 1
      }
      flush()
    }
    return list
  }
}

/** SQL: the message (`?1` its key, `?2` its version) is newer than the version applied. */
const NEWER = 'COALESCE((SELECT version FROM sync_versions WHERE key = ?1), -1) < ?2'
/** SQL: the provider named by the parameter was removed (its listings and reviews go with it). */
const removedProvider = (param: string) =>
  `EXISTS (SELECT 1 FROM sync_versions WHERE key = ${param} AND removed = 1)`

/**
 * SQL selecting, when the message is newer, touched rows of `kind`: `columns` (value, city) of
 * the message's row joined with `join` (a table as `x`, or nothing) where `where`.
 */
const touched = (kind: string, columns: string, join = '', where = 'true') =>
  `SELECT '${kind}', ${columns} FROM {rows} ${join} WHERE ${where} AND ${NEWER}`

/**
 * SQL recording at `?3` the purge of the tags `?4` (JSON), when the message is newer and an
 * earlier statement of the batch has not (a provider and its listing name the same tag).
 */
const PURGE_LITERAL = `INSERT INTO purges (at, tag)
  SELECT DISTINCT ?3, t.value FROM {rows}, json_each(?4) AS t WHERE ${NEWER}
    AND NOT EXISTS (SELECT 1 FROM purges WHERE at = ?3 AND tag = t.value)`
/** The same, only when the entity is new: no version yet, or a removal's. */
const PURGE_IF_NEW = `${PURGE_LITERAL}
  AND COALESCE((SELECT removed FROM sync_versions WHERE key = ?1), 1) = 1`
/** SQL holding the tags `?4` back to coalesce (src/sync/purge-tags.ts), when the message is newer. */
const COALESCE_LITERAL = `INSERT INTO pending_purges (tag, since)
  SELECT t.value, ?3 FROM {rows}, json_each(?4) AS t WHERE ${NEWER}
  ON CONFLICT (tag) DO NOTHING`

/** SQL deleting the rows of `table` whose `column` is the message's `?3`, when it is newer. */
const removeWhere = (table: string, column: string) =>
  `DELETE FROM ${table} WHERE ${column} IN (SELECT ?3 FROM {rows} WHERE ${NEWER})`

function cityAdded(s: Statements, m: MessageOf<'city.added'>): void {
  const c = m.entity
  const slug = citySlug(c.name, c.stateCode)
  s.touched(m, cityTags(slug), [])
  // The cities table's triggers log a new slug for the gate (migrations/0006_city_additions.sql).
  s.add(
    m,
    `INSERT INTO cities (id, slug, name, state_code, lat, lng, population)
     SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?9 FROM {rows} WHERE ${NEWER}
     ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, name = excluded.name,
       state_code = excluded.state_code, lat = excluded.lat, lng = excluded.lng,
       population = excluded.population`,
    m.id,
    slug,
    c.name,
    c.stateCode,
    c.lat,
    c.lng,
    c.population,
  )
  s.version(m, false)
}

/** SQL: the provider's (`?4`) listings. */
const LISTINGS = 'JOIN provider_services AS x ON x.provider_id = ?4'

function providerUpserted(s: Statements, m: MessageOf<'provider.upserted'>): void {
  const p = m.entity
  const nameSlug = slugOf(p.businessName ?? `${p.firstName} ${p.lastName.charAt(0)}`)
  // Its listings where they were and where they will be.
  s.touched(
    m,
    providerTags(m.id, nameSlug),
    [
      touched('listing', 'x.service, x.city_id', LISTINGS),
      touched('listing', 'x.service, ?5', LISTINGS),
    ],
    m.id,
    p.cityId,
  )
  // An id the gate was built without: logged, so its profile is no false 404 (src/gate/gate.ts).
  s.derived(
    m,
    `INSERT INTO city_additions (slug) SELECT ?4 FROM {rows}
      WHERE NOT EXISTS (SELECT 1 FROM providers WHERE id = ?3) AND ${NEWER}`,
    m.id,
    entityKey(m),
  )
  s.add(
    m,
    `INSERT INTO providers (id, name_slug, first_name, last_name, business_type, business_name,
       city_id, lat, lng, headline, bio, photo_url, years_experience, badges, availability, traits,
       languages, certifications, education, rating, review_count, capacity, opening_hours,
       address, created_at, updated_at)
     SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
       ?21, NULL, 0, ?22, ?23, ?24, ?25, ?26 FROM {rows} WHERE ${NEWER}
     ON CONFLICT (id) DO UPDATE SET name_slug = excluded.name_slug,
       first_name = excluded.first_name, last_name = excluded.last_name,
       business_type = excluded.business_type, business_name = excluded.business_name,
       city_id = excluded.city_id, lat = excluded.lat, lng = excluded.lng,
       headline = excluded.headline, bio = excluded.bio, photo_url = excluded.photo_url,
       years_experience = excluded.years_experience, badges = excluded.badges,
       availability = excluded.availability, traits = excluded.traits,
       languages = excluded.languages, certifications = excluded.certifications,
       education = excluded.education, capacity = excluded.capacity,
       opening_hours = excluded.opening_hours, address = excluded.address,
       created_at = excluded.created_at, updated_at = excluded.updated_at`,
    m.id,
    nameSlug,
    p.firstName,
    p.lastName,
    p.businessType,
    p.businessName,
    p.cityId,
    p.lat,
    p.lng,
    p.headline,
    p.bio,
    p.photoUrl,
    p.yearsExperience,
    maskOf(p.badges, BADGES),
    maskOf(p.availability, WEEKDAYS),
    maskOf(p.traits, TRAITS),
    p.languages.join(','),
    p.certifications.join(','),
    p.education,
    p.capacity,
    p.openingHours,
    p.address,
    instant(p.createdAt),
    instant(p.updatedAt),
  )
  // Listings copy the fields directories filter on.
  s.add(
    m,
    `UPDATE provider_services SET city_id = ?4, lat = ?5, lng = ?6, years_experience = ?7,
       badges = ?8, availability = ?9
     FROM {rows} WHERE provider_id = ?3 AND ${NEWER}
       AND (city_id, lat, lng, years_experience, badges, availability) IS NOT (?4, ?5, ?6, ?7, ?8, ?9)`,
    m.id,
    p.cityId,
    p.lat,
    p.lng,
    p.yearsExperience,
    maskOf(p.badges, BADGES),
    maskOf(p.availability, WEEKDAYS),
  )
  s.version(m, false)
}

function providerRemoved(s: Statements, m: MessageOf<'provider.removed'>): void {
  s.touched(m, [TAG.provider(m.id)], [touched('listing', 'x.service, x.city_id', LISTINGS)], m.id)
  for (const sql of [
    removeWhere('reviews', 'provider_id'),
    removeWhere('provider_services', 'provider_id'),
    removeWhere('providers', 'id'),
  ])
    s.add(m, sql, m.id)
  s.version(m, true)
}

/** SQL selecting the listing (`?4` provider, `?5` service) as touched: in its provider's city. */
const LISTING = touched('listing', '?5, x.city_id', 'JOIN providers AS x ON x.id = ?4')

function listingOffered(s: Statements, m: MessageOf<'provider-service.offered'>): void {
  const l = m.entity
  const service = findService(m.service)
  if (!service) throw new Error(`no service ${m.service}`)
  s.touched(m, [TAG.provider(m.id)], [LISTING], m.id, m.service)
  // The provider's fields are read from its row: a listing of a provider not in the catalog
  // writes NULL into them and fails (an impossible reference); one of a removed provider is
  // dropped.
  s.add(
    m,
    `INSERT INTO provider_services (provider_id, service, city_id, lat, lng, rank_score,
       created_at, rate_min, rate_max, pay_unit, years_experience, badges, availability, ages,
       options, schedules)
     SELECT ?3, ?4, x.city_id, x.lat, x.lng, ?5, ?6, ?7, ?8, ?9, x.years_experience, x.badges,
       x.availability, ?10, ?11, ?12
     FROM {rows} LEFT JOIN providers AS x ON x.id = ?3
     WHERE ${NEWER} AND NOT ${removedProvider('?13')}
     ON CONFLICT (provider_id, service) DO UPDATE SET rank_score = excluded.rank_score,
       created_at = excluded.created_at, rate_min = excluded.rate_min,
       rate_max = excluded.rate_max, ages = excluded.ages, options = excluded.options,
       schedules = excluded.schedules`,
    m.id,
    m.service,
    l.rankScore,
    instant(l.createdAt),
    l.rateMin,
    l.rateMax,
    service.payUnit,
    maskOf(l.ages, service.ages),
    maskOf(l.options, service.options),
    maskOf(l.schedules, service.schedules),
    `provider:${m.id}`,
  )
  s.version(m, false)
}

function listingWithdrawn(s: Statements, m: MessageOf<'provider-service.withdrawn'>): void {
  s.touched(m, [TAG.provider(m.id)], [LISTING], m.id, m.service)
  s.add(
    m,
    `DELETE FROM provider_services WHERE (provider_id, service) IN
       (SELECT ?3, ?4 FROM {rows} WHERE ${NEWER})`,
    m.id,
    m.service,
  )
  s.version(m, true)
}

/** SQL selecting the rating of the review's (`?4`) provider as touched. */
const RATING = touched('rating', 'x.provider_id, 0', 'JOIN reviews AS x ON x.id = ?4')

function reviewAdded(s: Statements, m: MessageOf<'review.added'>): void {
  const r = m.entity
  // The rating of the provider it was of, and of the one it is of (unless removed).
  s.touched(
    m,
    [],
    [RATING, touched('rating', '?5, 0', '', `NOT ${removedProvider('?6')}`)],
    m.id,
    r.providerId,
    `provider:${r.providerId}`,
  )
  s.add(
    m,
    `INSERT INTO reviews (id, provider_id, service, author, rating, ratings, body, created_at)
     SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 FROM {rows}
     WHERE ${NEWER} AND NOT ${removedProvider('?11')}
     ON CONFLICT (id) DO UPDATE SET provider_id = excluded.provider_id,
       service = excluded.service, author = excluded.author, rating = excluded.rating,
       ratings = excluded.ratings, body = excluded.body, created_at = excluded.created_at`,
    m.id,
    r.providerId,
    r.service,
    r.author,
    r.rating,
    JSON.stringify({ OVERALL: r.rating, ...r.ratings }),
    r.body,
    instant(r.createdAt),
    `provider:${r.providerId}`,
  )
  // A review moved to a removed provider goes with it, as if the removal had come after: the row
  // an older version left on another provider must not outlive the newer version.
  s.add(
    m,
    `DELETE FROM reviews WHERE id IN (SELECT ?3 FROM {rows} WHERE ${NEWER} AND ${removedProvider('?4')})`,
    m.id,
    `provider:${r.providerId}`,
  )
  s.version(m, false)
}

function reviewRemoved(s: Statements, m: MessageOf<'review.removed'>): void {
  s.touched(m, [], [RATING], m.id)
  s.add(m, removeWhere('reviews', 'id'), m.id)
  s.version(m, true)
}

function jobChanged(s: Statements, m: MessageOf<'job.upserted' | 'job.closed'>): void {
  const j: Job = m.entity
  const jobService = findJobService(j.service)
  if (!jobService) throw new Error(`no job service ${j.service}`)
  const titleSlug = slugOf(j.title)
  const validThrough = instant(
    m.kind === 'job.closed' && m.closedAt < j.validThrough ? m.closedAt : j.validThrough,
  )
  // Its job listing, where it was and where it will be.
  s.touched(
    m,
    jobTags(m.id, titleSlug),
    [
      touched('jobs', 'x.service, x.city_id', 'JOIN jobs AS x ON x.id = ?4'),
      touched('jobs', '?5, ?6'),
    ],
    m.id,
    j.service,
    j.cityId,
  )
  s.derived(
    m,
    `INSERT INTO city_additions (slug) SELECT ?4 FROM {rows}
      WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE id = ?3) AND ${NEWER}`,
    m.id,
    entityKey(m),
  )
  s.add(
    m,
    `INSERT INTO jobs (id, title_slug, title, service, job_type, employer, city_id, lat, lng,
       description, pay_min, pay_max, pay_unit, schedule, hours_per_week, start_date, children,
       ages, requirements, rank_score, posted_at, valid_through)
     SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
       ?21, ?22, ?23, ?24 FROM {rows} WHERE ${NEWER}
     ON CONFLICT (id) DO UPDATE SET title_slug = excluded.title_slug, title = excluded.title,
       service = excluded.service, job_type = excluded.job_type, employer = excluded.employer,
       city_id = excluded.city_id, lat = excluded.lat, lng = excluded.lng,
       description = excluded.description, pay_min = excluded.pay_min,
       pay_max = excluded.pay_max, pay_unit = excluded.pay_unit, schedule = excluded.schedule,
       hours_per_week = excluded.hours_per_week, start_date = excluded.start_date,
       children = excluded.children, ages = excluded.ages,
       requirements = excluded.requirements, rank_score = excluded.rank_score,
       posted_at = excluded.posted_at, valid_through = excluded.valid_through`,
    m.id,
    titleSlug,
    j.title,
    j.service,
    j.jobType,
    j.employer,
    j.cityId,
    j.lat,
    j.lng,
    j.description,
    j.payMin,
    j.payMax,
    j.payUnit,
    j.schedule,
    j.hoursPerWeek,
    j.startDate,
    j.children,
    maskOf(j.ages, jobService.service.ages),
    maskOf(j.requirements, JOB_REQUIREMENTS),
    j.rankScore,
    instant(j.postedAt),
    validThrough,
  )
  s.version(m, false)
}

/** SQL selecting the keywords of the activity (`?4`) as touched. */
const KEYWORDS = touched(
  'keyword',
  'k.value, 0',
  'JOIN activities AS x ON x.id = ?4, json_each(json_array(x.category, x.subcategory)) AS k',
  'k.value IS NOT NULL',
)

function activityUpserted(s: Statements, m: MessageOf<'activity.upserted'>): void {
  const a = m.entity
  // Its keywords before and after.
  s.touched(
    m,
    [],
    [
      KEYWORDS,
      touched(
        'keyword',
        'k.value, 0',
        ', json_each(json_array(?5, ?6)) AS k',
        'k.value IS NOT NULL',
      ),
    ],
    m.id,
    a.category,
    a.subcategory,
  )
  s.add(
    m,
    `INSERT INTO activities (id, name, organizer, source, category, subcategory, participation,
       ages, days, start_date, end_date, is_camp, price, price_unit, description, city_id, venue,
       address, rank_score)
     SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
       ?21 FROM {rows} WHERE ${NEWER}
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, organizer = excluded.organizer,
       source = excluded.source, category = excluded.category,
       subcategory = excluded.subcategory, participation = excluded.participation,
       ages = excluded.ages, days = excluded.days, start_date = excluded.start_date,
       end_date = excluded.end_date, is_camp = excluded.is_camp, price = excluded.price,
       price_unit = excluded.price_unit, description = excluded.description,
       city_id = excluded.city_id, venue = excluded.venue, address = excluded.address,
       rank_score = excluded.rank_score`,
    m.id,
    a.name,
    a.organizer,
    a.source,
    a.category,
    a.subcategory,
    a.participation,
    maskOf(a.ages, ACTIVITY_AGE_GROUPS),
    maskOf(a.days, WEEKDAYS),
    a.startDate,
    a.endDate,
    a.isCamp ? 1 : 0,
    a.price,
    a.priceUnit,
    a.description,
    a.cityId,
    a.venue,
    a.address,
    a.rankScore,
  )
  s.version(m, false)
}

function activityRemoved(s: Statements, m: MessageOf<'activity.removed'>): void {
  s.touched(m, [], [KEYWORDS], m.id)
  s.add(m, removeWhere('activities', 'id'), m.id)
  s.version(m, true)
}

/** Each kind's statements. */
const STATEMENTS: { [K in MessageKind]: (s: Statements, m: MessageOf<K>) => void } = {
  'city.added': cityAdded,
  'provider.upserted': providerUpserted,
  'provider.removed': providerRemoved,
  'provider-service.offered': listingOffered,
  'provider-service.withdrawn': listingWithdrawn,
  'review.added': reviewAdded,
  'review.removed': reviewRemoved,
  'job.upserted': jobChanged,
  'job.closed': jobChanged,
  'activity.upserted': activityUpserted,
  'activity.removed': activityRemoved,
}

function messageStatements(s: Statements, m: CatalogMessage): void {
  s.begin()
  // The table pairs each kind with its handler; TypeScript cannot follow the pairing through m.kind.
  ;(STATEMENTS[m.kind] as (s: Statements, m: CatalogMessage) => void)(s, m)
}

/** SQL: providers' ratings and review counts, from their reviews. */
const RATINGS = `UPDATE providers SET
  rating = (SELECT ROUND(AVG(rating), 2) FROM reviews WHERE provider_id = providers.id),
  review_count = (SELECT COUNT(*) FROM reviews WHERE provider_id = providers.id)`

/**
 * What the touched rows need: ratings of the providers whose reviews changed (and so the review
 * counts of their listings' stats), the stats of the listings, jobs and keywords touched, the
 * purge of every page showing them (unless `purge` is false: the cron's upkeep, which like a
 * full refresh leaves pages to show new counts at their next render); then the list is emptied
 * for the next batch.
 */
export function derivationStatements(
  db: D1Database,
  now: Date,
  { purge = true }: { purge?: boolean } = {},
): D1PreparedStatement[] {
  const rated = `SELECT CAST(value AS INTEGER) FROM sync_touched WHERE kind = 'rating'`
  return [
    db.prepare(`${RATINGS} WHERE id IN (${rated})`),
    db.prepare(
      `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
       SELECT 'listing', service, city_id FROM provider_services WHERE provider_id IN (${rated})`,
    ),
    ...statsStatements(db, now, 'touched'),
    ...(purge ? [...PURGE_TOUCHED_SQL, ...FLUSH_PENDING_SQL] : []).map((sql) =>
      db.prepare(sql).bind(now.getTime()),
    ),
    db.prepare('DELETE FROM sync_touched'),
  ]
}

/**
 * The statements applying `messages`, for one `db.batch`: the newest message of each entity,
 * then (unless `derive` is false) what they touched re-aggregated and purged.
 */
export function changeStatements(
  db: D1Database,
  messages: readonly CatalogMessage[],
  { derive = true, now = new Date() }: ApplyOptions = {},
): D1PreparedStatement[] {
  const s = new Statements(db, derive, now.getTime())
  let versioned = false
  for (const message of newestPerEntity(messages)) {
    // A listing or review of a provider removed in this batch must see the removal's version.
    if (!versioned && ORDER[message.kind] >= ORDER['provider-service.offered']) {
      s.versions()
      versioned = true
    }
    messageStatements(s, message)
  }
  s.versions()
  return derive ? [...s.list, ...derivationStatements(db, now)] : s.list
}

/** D1's own count of the rows a batch read and wrote (its results' `meta`): what D1 bills. */
export interface RowsTouched {
  rowsRead: number
  rowsWritten: number
}

/** Applies `messages` as one D1 batch: all of it, or (when it throws) nothing. */
export async function applyChanges(
  db: D1Database,
  messages: readonly CatalogMessage[],
  options: ApplyOptions = {},
): Promise<RowsTouched> {
  const rows = { rowsRead: 0, rowsWritten: 0 }
  if (messages.length === 0) return rows
  for (const { meta } of await db.batch(changeStatements(db, messages, options))) {
    rows.rowsRead += meta.rows_read
    rows.rowsWritten += meta.rows_written
  }
  return rows
}

/**
 * What a bulk import applied with `derive: false` needs once at the end: every rating and stat
 * computed again, the gate rebuilt (src/gate/build-gate.ts) and every stored page purged.
 */
export async function refreshAfterImport(
  env: Pick<Env, 'DB' | 'GATE'>,
  now = new Date(),
): Promise<void> {
  const db = env.DB
  await db.batch([
    db.prepare(RATINGS),
    ...statsStatements(db, now, 'all'),
    db
      .prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
      .bind(now.getTime(), JSON.stringify(ALL_PAGES_TAGS)),
    db.prepare('DELETE FROM sync_touched'),
  ])
  await saveGate(env.GATE, await buildGate(db, now))
}
