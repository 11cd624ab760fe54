import { ACTIVITY_AGE_GROUPS } from '../catalog/activities'
import type { Labelled } from '../catalog/enums'
import { BADGES, TRAITS, WEEKDAYS } from '../catalog/enums'
import { findJobService, JOB_REQUIREMENTS } from '../catalog/jobs'
import { citySlug } from '../catalog/cities'
import { versionKey } from '../catalog/version-key'
import { slugOf } from '../catalog/options'
import { findService } from '../catalog/services'
import { TAG } from '../cache/tags'
import { statsStatements } from '../data/refresh-stats'
import type { CatalogMessage, Job, MessageKind, MessageOf } from './messages'
import { entityKey } from './messages'
import {
  cityTags,
  FLUSH_PENDING_SQL,
  jobTags,
  literalPurges,
  providerTags,
  PURGE_TOUCHED_SQL,
} from './purge-tags'
import type { LiteralTags } from './purge-tags'
import { statsBefore, statsByChange } from './stats-by-change'

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
   * for the gate and records purges (default). A bulk import turns it off and derives each
   * database's part once at the end (scripts/import/finish.ts).
   */
  derive?: boolean
  /** The moment the change is applied: purge times, and which jobs are open. */
  now?: Date
}

/**
 * Where a batch's statements run (docs/scale.md): control (its cities and activities), a shard
 * (its part), whose writes to control's tables become rows of its outbox (src/sync/outbox.ts),
 * or `single`, a database that writes its own purges and gate additions as control does (the
 * import's batches, which derive nothing until the import's end).
 */
export type Place = 'single' | 'control' | 'shard'

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
/** A message's values for one statement, bound by name (the statement reads them with `value`). */
type Row = Readonly<Record<string, Param>>

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
 * A batch statement runs once over the rows of a JSON array, each a JSON object of the values
 * one message binds by name. Every message of a kind makes the same statements, so a batch runs
 * each of them once for all its messages of that kind, whatever their number: a batch is a few
 * statements per kind, not a few per message (D1 limits the statements of an invocation). The
 * rows are materialized first: read straight from `json_each`, a row is rendered to JSON text
 * again for each of its values (about half of the statement's time for a provider's 26 values).
 */
const BATCH_ROWS = 'WITH batch_rows (value) AS MATERIALIZED (SELECT value FROM json_each(?1)) '
/** SQL: the batch's rows, each as `p`. */
const ROWS = 'batch_rows AS p'
/** SQL: the current row's value named `name`. */
const value = (name: string) => `(p.value ->> '${name}')`
/** SQL of the values every row carries: the entity's key and the message's version. */
const KEY = value('key')
const VERSION = value('version')

/** SQL writing the versions of the messages (`removed`: whether it removed the entity) newer. */
const VERSIONS = `INSERT INTO sync_versions (key, version, removed)
  SELECT ${KEY}, ${VERSION}, ${value('removed')} FROM ${ROWS} WHERE true
  ON CONFLICT (key) DO UPDATE SET version = excluded.version, removed = excluded.removed
  WHERE excluded.version > sync_versions.version`

/**
 * A batch's statements: each message adds its kind's statements, each with its row of values
 * (`key` the entity's key, `version` the message's, then its own), guarded by its version; the
 * statements of one kind are then run once over the rows of all its messages, in the order the
 * first message made them. Versions are written after the statements of every message before,
 * by `versions()`.
 */
class Statements {
  /** By kind and the statement's place among its message's. */
  readonly #groups = new Map<string, { sql: string; rows: Row[] }>()
  #versions: Row[] = []
  #index = 0
  constructor(
    readonly db: D1Database,
    readonly derive: boolean,
    /** The purges' time. */
    readonly at: number,
    readonly place: Place = 'single',
  ) {}

  /** The next message's statements start. */
  begin(): void {
    this.#index = 0
  }

  /** Adds `sql`, with the message's key and version and `row`'s values bound by name. */
  add(message: CatalogMessage, sql: string, row: Row = {}): void {
    const place = `${message.kind} ${this.#index++}`
    let group = this.#groups.get(place)
    if (!group) this.#groups.set(place, (group = { sql, rows: [] }))
    // Every message of a kind makes the same statements in the same order.
    else if (group.sql !== sql) throw new Error(`${place}: another statement than its kind's`)
    group.rows.push({ key: entityKey(message), version: message.version, ...row })
  }

  /** Adds `sql` only when the batch derives. */
  derived(message: CatalogMessage, sql: string, row: Row = {}): void {
    if (this.derive) this.add(message, sql, row)
  }

  /**
   * Lists what the message touches, when it is newer and the batch derives: the rows of `terms`
   * (`touched(...)`, reading `row`'s values), before and after the change alike, in one
   * statement that runs before the message's own; and records the purge of its literal `tags`
   * (src/sync/purge-tags.ts): at once, at once only when the entity is new, or coalesced. What
   * each tag list holds depends on the kind alone, so every message of a kind makes the same
   * statements.
   */
  touched(
    message: CatalogMessage,
    tags: LiteralTags | readonly string[],
    terms: readonly string[],
    row: Row = {},
  ): void {
    if (terms.length)
      this.derived(
        message,
        `INSERT OR IGNORE INTO sync_touched (kind, value, city_id) ${terms.join(' UNION ALL ')}`,
        row,
      )
    // A city's pages are purged by control, which holds the cities; a shard holds a copy.
    if (this.place === 'shard' && message.kind === 'city.added') return
    const { atOnce, whenNew, coalesced } = literalPurges(tags)
    const sql = this.place === 'shard' ? OUTBOX_PURGES : PURGES
    const at = this.at
    if (atOnce.length) this.derived(message, sql.atOnce, { at, tags: JSON.stringify(atOnce) })
    if (whenNew.length)
      this.derived(message, sql.whenNew, { at, tags: JSON.stringify(whenNew), id: message.id })
    if (coalesced.length)
      this.derived(message, sql.coalesced, { at, tags: JSON.stringify(coalesced) })
  }

  /** Logs the entity's slug for the gate when it is new to `table` (providers or jobs). */
  newId(message: CatalogMessage, table: string): void {
    const sql = this.place === 'shard' ? outboxAddition(table) : newId(table)
    this.derived(message, sql, { id: message.id, slug: entityKey(message) })
  }

  /**
   * Writes the message's version (and whether it removed the entity), when it is newer: once
   * every statement guarded by it has run, at the next `versions()`.
   */
  version(message: CatalogMessage, removed: boolean): void {
    this.#versions.push({
      key: entityKey(message),
      version: message.version,
      removed: removed ? 1 : 0,
    })
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
      const statement = this.db.prepare(BATCH_ROWS + sql)
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

/** SQL: the message is newer than the version applied. */
const NEWER = `COALESCE((SELECT version FROM sync_versions WHERE key = ${KEY}), -1) < ${VERSION}`
/** SQL: the provider whose version key is the row's `name` was removed (its listings and reviews go with it). */
const removedProvider = (name: string) =>
  `EXISTS (SELECT 1 FROM sync_versions WHERE key = ${value(name)} AND removed = 1)`

/**
 * A table the messages write, one map of its columns generating the insert, the select from the
 * batch's rows and the conflict clause: each column bound by its name from the message's row, or
 * computed by SQL of its own (`computed`, on insert only, from a constant or the row joined as
 * `x` by `join`). An update sets every bound column but the key and `keep`.
 */
interface ColumnMap<Column extends string> {
  table: string
  /** The bound columns, in the table's order. */
  columns: readonly Column[]
  /** The conflict target: the row's identity. */
  key: readonly Column[]
  computed?: Readonly<Record<string, string>>
  /** Bound columns an update leaves as they were. */
  keep?: readonly Column[]
  /** SQL joined to the batch's rows, as `x`. */
  join?: string
  /** SQL: a further condition, beside the version's. */
  where?: string
}

/** The upsert of `map`'s table from the batch's rows, when the message is newer. */
function upsert<Column extends string>(map: ColumnMap<Column>): string {
  const computed = Object.entries(map.computed ?? {})
  const names = [...map.columns, ...computed.map(([name]) => name)]
  const values = [...map.columns.map(value), ...computed.map(([, sql]) => sql)]
  const updated = map.columns.filter((c) => !map.key.includes(c) && !map.keep?.includes(c))
  return `INSERT INTO ${map.table} (${names.join(', ')})
     SELECT ${values.join(', ')} FROM ${ROWS} ${map.join ?? ''}
     WHERE ${NEWER}${map.where ? ` AND ${map.where}` : ''}
     ON CONFLICT (${map.key.join(', ')}) DO UPDATE SET
       ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`
}

/**
 * SQL selecting, when the message is newer, touched rows of `kind`: `columns` (value, city) of
 * the message's row joined with `join` (a table as `x`, or nothing) where `where`.
 */
const touched = (kind: string, columns: string, join = '', where = 'true') =>
  `SELECT '${kind}', ${columns} FROM ${ROWS} ${join} WHERE ${where} AND ${NEWER}`

/**
 * SQL recording at `at` the purge of the tags `tags` (JSON), when the message is newer and an
 * earlier statement of the batch has not (a provider and its listing name the same tag).
 */
const PURGE_LITERAL = `INSERT INTO purges (at, tag)
  SELECT DISTINCT ${value('at')}, t.value FROM ${ROWS}, json_each(${value('tags')}) AS t WHERE ${NEWER}
    AND NOT EXISTS (SELECT 1 FROM purges WHERE at = ${value('at')} AND tag = t.value)`
/** The same, only when the entity is new: no version yet, or a removal's. */
const PURGE_IF_NEW = `${PURGE_LITERAL}
  AND COALESCE((SELECT removed FROM sync_versions WHERE key = ${KEY}), 1) = 1`
/** SQL holding the tags `tags` back to coalesce (src/sync/purge-tags.ts), when the message is newer. */
const COALESCE_LITERAL = `INSERT INTO pending_purges (tag, since)
  SELECT t.value, ${value('at')} FROM ${ROWS}, json_each(${value('tags')}) AS t WHERE ${NEWER}
  ON CONFLICT (tag) DO NOTHING`

const PURGES = { atOnce: PURGE_LITERAL, whenNew: PURGE_IF_NEW, coalesced: COALESCE_LITERAL }

/** SQL: an outbox row of `kind` with the row's purge time and tags (and `more`), when newer. */
const outboxTags = (kind: string, more = '', where = '') => `INSERT INTO outbox (kind, body)
  SELECT '${kind}', json_object('at', ${value('at')}, 'tags', json(${value('tags')})${more})
    FROM ${ROWS} WHERE ${NEWER} ${where}`

/**
 * On a shard the purges go to its outbox (src/sync/outbox.ts). "New" is first what the shard
 * knows (no version, or a removal's), then control's directory (a provider moving in is new to
 * its new shard only).
 */
const OUTBOX_PURGES = {
  atOnce: outboxTags('purge'),
  whenNew: outboxTags(
    'new',
    `, 'key', ${KEY}, 'id', ${value('id')}`,
    `AND COALESCE((SELECT removed FROM sync_versions WHERE key = ${KEY}), 1) = 1`,
  ),
  coalesced: outboxTags('pending'),
}

/** SQL deleting the rows of `table` whose `column` is the row's `id`, when the message is newer. */
const removeWhere = (table: string, column: string) =>
  `DELETE FROM ${table} WHERE ${column} IN (SELECT ${value('id')} FROM ${ROWS} WHERE ${NEWER})`

/** SQL logging the row's `slug` for the gate when no row of `table` has the row's `id` yet. */
const newId = (table: string) =>
  `INSERT INTO city_additions (slug) SELECT ${value('slug')} FROM ${ROWS}
      WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE id = ${value('id')}) AND ${NEWER}`

/** The same on a shard, into its outbox: control's directory has the last word. */
const outboxAddition = (table: string) => `INSERT INTO outbox (kind, body)
  SELECT 'addition', json_object('slug', ${value('slug')}, 'key', ${KEY}, 'id', ${value('id')})
    FROM ${ROWS} WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE id = ${value('id')}) AND ${NEWER}`

const CITIES = upsert({
  table: 'cities',
  columns: ['id', 'slug', 'name', 'state_code', 'lat', 'lng', 'population'],
  key: ['id'],
})

function cityAdded(s: Statements, m: MessageOf<'city.added'>): void {
  const c = m.entity
  const slug = citySlug(c.name, c.stateCode)
  s.touched(m, cityTags(slug), [])
  // The cities table's triggers log a new slug for the gate (migrations/control/0001_control.sql).
  s.add(m, CITIES, {
    id: m.id,
    slug,
    name: c.name,
    state_code: c.stateCode,
    lat: c.lat,
    lng: c.lng,
    population: c.population,
  })
  s.version(m, false)
}

/** SQL: the provider's (the row's `id`) listings. */
const LISTINGS = `JOIN provider_services AS x ON x.provider_id = ${value('id')}`

const PROVIDERS = upsert({
  table: 'providers',
  columns: [
    'id',
    'name_slug',
    'first_name',
    'last_name',
    'business_type',
    'business_name',
    'city_id',
    'lat',
    'lng',
    'headline',
    'bio',
    'photo_url',
    'years_experience',
    'badges',
    'availability',
    'traits',
    'languages',
    'certifications',
    'education',
    'capacity',
    'opening_hours',
    'address',
    'created_at',
    'updated_at',
  ],
  key: ['id'],
  // Derived from its reviews (derivationStatements).
  computed: { rating: 'NULL', review_count: '0' },
})

/** The fields of a provider that its listings copy, for directories to filter on. */
const COPIED = ['city_id', 'lat', 'lng', 'years_experience', 'badges', 'availability'] as const
const COPY_TO_LISTINGS = `UPDATE provider_services SET
       ${COPIED.map((c) => `${c} = ${value(c)}`).join(', ')}
     FROM ${ROWS} WHERE provider_id = ${value('id')} AND ${NEWER}
       AND (${COPIED.join(', ')}) IS NOT (${COPIED.map(value).join(', ')})`

function providerUpserted(s: Statements, m: MessageOf<'provider.upserted'>): void {
  const p = m.entity
  const nameSlug = slugOf(p.businessName ?? `${p.firstName} ${p.lastName.charAt(0)}`)
  // Its listings where they were and where they will be.
  s.touched(
    m,
    providerTags(m.id, nameSlug),
    [
      touched('listing', 'x.service, x.city_id', LISTINGS),
      touched('listing', `x.service, ${value('city_id')}`, LISTINGS),
    ],
    { id: m.id, city_id: p.cityId },
  )
  // An id the gate was built without: logged, so its profile is no false 404 (src/gate/gate.ts).
  s.newId(m, 'providers')
  const copied = {
    city_id: p.cityId,
    lat: p.lat,
    lng: p.lng,
    years_experience: p.yearsExperience,
    badges: maskOf(p.badges, BADGES),
    availability: maskOf(p.availability, WEEKDAYS),
  }
  s.add(m, PROVIDERS, {
    id: m.id,
    name_slug: nameSlug,
    first_name: p.firstName,
    last_name: p.lastName,
    business_type: p.businessType,
    business_name: p.businessName,
    ...copied,
    headline: p.headline,
    bio: p.bio,
    photo_url: p.photoUrl,
    traits: maskOf(p.traits, TRAITS),
    languages: p.languages.join(','),
    certifications: p.certifications.join(','),
    education: p.education,
    capacity: p.capacity,
    opening_hours: p.openingHours,
    address: p.address,
    created_at: instant(p.createdAt),
    updated_at: instant(p.updatedAt),
  })
  // Listings copy the fields directories filter on.
  s.add(m, COPY_TO_LISTINGS, { id: m.id, ...copied })
  s.version(m, false)
}

function providerRemoved(s: Statements, m: MessageOf<'provider.removed'>): void {
  s.touched(m, [TAG.provider(m.id)], [touched('listing', 'x.service, x.city_id', LISTINGS)], {
    id: m.id,
  })
  for (const sql of [
    removeWhere('reviews', 'provider_id'),
    removeWhere('provider_services', 'provider_id'),
    removeWhere('providers', 'id'),
  ])
    s.add(m, sql, { id: m.id })
  s.version(m, true)
}

/** SQL selecting the listing (the row's `id` provider, `service`) as touched: in its provider's city. */
const LISTING = touched(
  'listing',
  `${value('service')}, x.city_id`,
  `JOIN providers AS x ON x.id = ${value('id')}`,
)

// The provider's fields are read from its row: a listing of a provider not in the catalog writes
// NULL into them and fails (an impossible reference); one of a removed provider is dropped.
const PROVIDER_SERVICES = upsert({
  table: 'provider_services',
  columns: [
    'provider_id',
    'service',
    'rank_score',
    'created_at',
    'rate_min',
    'rate_max',
    'pay_unit',
    'ages',
    'options',
    'schedules',
  ],
  key: ['provider_id', 'service'],
  keep: ['pay_unit'],
  computed: {
    city_id: 'x.city_id',
    lat: 'x.lat',
    lng: 'x.lng',
    years_experience: 'x.years_experience',
    badges: 'x.badges',
    availability: 'x.availability',
  },
  join: `LEFT JOIN providers AS x ON x.id = ${value('provider_id')}`,
  where: `NOT ${removedProvider('provider_key')}`,
})

function listingOffered(s: Statements, m: MessageOf<'provider-service.offered'>): void {
  const l = m.entity
  const service = findService(m.service)
  if (!service) throw new Error(`no service ${m.service}`)
  s.touched(m, [TAG.provider(m.id)], [LISTING], { id: m.id, service: m.service })
  s.add(m, PROVIDER_SERVICES, {
    provider_id: m.id,
    service: m.service,
    rank_score: l.rankScore,
    created_at: instant(l.createdAt),
    rate_min: l.rateMin,
    rate_max: l.rateMax,
    pay_unit: service.payUnit,
    ages: maskOf(l.ages, service.ages),
    options: maskOf(l.options, service.options),
    schedules: maskOf(l.schedules, service.schedules),
    provider_key: versionKey('provider', m.id),
  })
  s.version(m, false)
}

function listingWithdrawn(s: Statements, m: MessageOf<'provider-service.withdrawn'>): void {
  s.touched(m, [TAG.provider(m.id)], [LISTING], { id: m.id, service: m.service })
  s.add(
    m,
    `DELETE FROM provider_services WHERE (provider_id, service) IN
       (SELECT ${value('id')}, ${value('service')} FROM ${ROWS} WHERE ${NEWER})`,
    { id: m.id, service: m.service },
  )
  s.version(m, true)
}

/** SQL selecting the rating of the review's (the row's `id`) provider as touched. */
const RATING = touched('rating', 'x.provider_id, 0', `JOIN reviews AS x ON x.id = ${value('id')}`)

const REVIEWS = upsert({
  table: 'reviews',
  columns: ['id', 'provider_id', 'service', 'author', 'rating', 'ratings', 'body', 'created_at'],
  key: ['id'],
  where: `NOT ${removedProvider('provider_key')}`,
})

function reviewAdded(s: Statements, m: MessageOf<'review.added'>): void {
  const r = m.entity
  const providerKey = versionKey('provider', r.providerId)
  // The rating of the provider it was of, and of the one it is of (unless removed).
  s.touched(
    m,
    [],
    [
      RATING,
      touched('rating', `${value('provider_id')}, 0`, '', `NOT ${removedProvider('provider_key')}`),
    ],
    { id: m.id, provider_id: r.providerId, provider_key: providerKey },
  )
  s.add(m, REVIEWS, {
    id: m.id,
    provider_id: r.providerId,
    service: r.service,
    author: r.author,
    rating: r.rating,
    ratings: JSON.stringify({ OVERALL: r.rating, ...r.ratings }),
    body: r.body,
    created_at: instant(r.createdAt),
    provider_key: providerKey,
  })
  // A review moved to a removed provider goes with it, as if the removal had come after: the row
  // an older version left on another provider must not outlive the newer version.
  s.add(
    m,
    `DELETE FROM reviews WHERE id IN
       (SELECT ${value('id')} FROM ${ROWS} WHERE ${NEWER} AND ${removedProvider('provider_key')})`,
    { id: m.id, provider_key: providerKey },
  )
  s.version(m, false)
}

function reviewRemoved(s: Statements, m: MessageOf<'review.removed'>): void {
  s.touched(m, [], [RATING], { id: m.id })
  s.add(m, removeWhere('reviews', 'id'), { id: m.id })
  s.version(m, true)
}

const JOBS = upsert({
  table: 'jobs',
  columns: [
    'id',
    'title_slug',
    'title',
    'service',
    'job_type',
    'employer',
    'city_id',
    'lat',
    'lng',
    'description',
    'pay_min',
    'pay_max',
    'pay_unit',
    'schedule',
    'hours_per_week',
    'start_date',
    'children',
    'ages',
    'requirements',
    'rank_score',
    'posted_at',
    'valid_through',
  ],
  key: ['id'],
})

function jobChanged(s: Statements, m: MessageOf<'job.upserted' | 'job.closed'>): void {
  const j: Job = m.entity
  const jobService = findJobService(j.service)
  if (!jobService) throw new Error(`no job service ${j.service}`)
  const titleSlug = slugOf(j.title)
  // Its job listing, where it was and where it will be.
  s.touched(
    m,
    jobTags(m.id, titleSlug),
    [
      touched('jobs', 'x.service, x.city_id', `JOIN jobs AS x ON x.id = ${value('id')}`),
      touched('jobs', `${value('service')}, ${value('city_id')}`),
    ],
    { id: m.id, service: j.service, city_id: j.cityId },
  )
  s.newId(m, 'jobs')
  s.add(m, JOBS, {
    id: m.id,
    title_slug: titleSlug,
    title: j.title,
    service: j.service,
    job_type: j.jobType,
    employer: j.employer,
    city_id: j.cityId,
    lat: j.lat,
    lng: j.lng,
    description: j.description,
    pay_min: j.payMin,
    pay_max: j.payMax,
    pay_unit: j.payUnit,
    schedule: j.schedule,
    hours_per_week: j.hoursPerWeek,
    start_date: j.startDate,
    children: j.children,
    ages: maskOf(j.ages, jobService.service.ages),
    requirements: maskOf(j.requirements, JOB_REQUIREMENTS),
    rank_score: j.rankScore,
    posted_at: instant(j.postedAt),
    valid_through: instant(
      m.kind === 'job.closed' && m.closedAt < j.validThrough ? m.closedAt : j.validThrough,
    ),
  })
  s.version(m, false)
}

/** SQL selecting the keywords of the activity (the row's `id`) as touched. */
const KEYWORDS = touched(
  'keyword',
  'k.value, 0',
  `JOIN activities AS x ON x.id = ${value('id')}, json_each(json_array(x.category, x.subcategory)) AS k`,
  'k.value IS NOT NULL',
)

const ACTIVITIES = upsert({
  table: 'activities',
  columns: [
    'id',
    'name',
    'organizer',
    'source',
    'category',
    'subcategory',
    'participation',
    'ages',
    'days',
    'start_date',
    'end_date',
    'is_camp',
    'price',
    'price_unit',
    'description',
    'city_id',
    'venue',
    'address',
    'rank_score',
  ],
  key: ['id'],
})

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
        `, json_each(json_array(${value('category')}, ${value('subcategory')})) AS k`,
        'k.value IS NOT NULL',
      ),
    ],
    { id: m.id, category: a.category, subcategory: a.subcategory },
  )
  s.add(m, ACTIVITIES, {
    id: m.id,
    name: a.name,
    organizer: a.organizer,
    source: a.source,
    category: a.category,
    subcategory: a.subcategory,
    participation: a.participation,
    ages: maskOf(a.ages, ACTIVITY_AGE_GROUPS),
    days: maskOf(a.days, WEEKDAYS),
    start_date: a.startDate,
    end_date: a.endDate,
    is_camp: a.isCamp ? 1 : 0,
    price: a.price,
    price_unit: a.priceUnit,
    description: a.description,
    city_id: a.cityId,
    venue: a.venue,
    address: a.address,
    rank_score: a.rankScore,
  })
  s.version(m, false)
}

function activityRemoved(s: Statements, m: MessageOf<'activity.removed'>): void {
  s.touched(m, [], [KEYWORDS], { id: m.id })
  s.add(m, removeWhere('activities', 'id'), { id: m.id })
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
export const RATINGS = `UPDATE providers SET
  rating = (SELECT ROUND(AVG(rating), 2) FROM reviews WHERE provider_id = providers.id),
  review_count = (SELECT COUNT(*) FROM reviews WHERE provider_id = providers.id)`

/**
 * What the touched rows need: ratings of the providers whose reviews changed (and so the review
 * counts of their listings' stats), the stats of the listings, jobs and keywords touched, the
 * purge of every page showing them (unless `purge` is false: the cron's upkeep, which like a
 * full refresh leaves pages to show new counts at their next render); then the list is emptied
 * for the next batch. With `changed` (a batch's messages, which began with `statsBefore`) the
 * listings' stats move by the change (src/sync/stats-by-change.ts) instead of being recomputed
 * from their cities' listings.
 */
export function derivationStatements(
  db: D1Database,
  now: Date,
  { purge = true, changed }: { purge?: boolean; changed?: readonly CatalogMessage[] } = {},
): D1PreparedStatement[] {
  const rated = `SELECT CAST(value AS INTEGER) FROM sync_touched WHERE kind = 'rating'`
  return [
    db.prepare(`${RATINGS} WHERE id IN (${rated})`),
    db.prepare(
      `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
       SELECT 'listing', service, city_id FROM provider_services WHERE provider_id IN (${rated})`,
    ),
    ...statsStatements(db, now, 'touched', { listings: !changed }),
    ...(changed ? statsByChange(db, changed) : []),
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
  const list = messagesStatements(db, messages, { derive, now })
  if (!derive) return list
  return [
    ...statsBefore(db, messages),
    ...list,
    ...derivationStatements(db, now, { changed: messages }),
  ]
}

/**
 * The statements of `messages` alone, on `place` (src/sync/routed-apply.ts adds the derivation
 * of each database): the newest message of each entity, guarded by its version.
 */
export function messagesStatements(
  db: D1Database,
  messages: readonly CatalogMessage[],
  { derive = true, now = new Date(), place = 'single' }: ApplyOptions & { place?: Place } = {},
): D1PreparedStatement[] {
  const s = new Statements(db, derive, now.getTime(), place)
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
  return s.list
}

/** D1's own count of the rows a batch read and wrote (its results' `meta`): what D1 bills. */
export interface RowsTouched {
  rowsRead: number
  rowsWritten: number
}
