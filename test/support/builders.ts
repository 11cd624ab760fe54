import { env, exports } from 'cloudflare:workers'
import type { EntryMeta } from '../../src/cache/entry-meta'
import { memory } from '../../src/app'
import { databasesOf } from '../../src/data/databases'
import { controlStatsStatements, shardStatsStatements } from '../../src/data/refresh-stats'
import { buildGate } from '../../src/gate/build-gate'
import { saveGate } from '../../src/gate/gate-store'
import { copyCityRows } from '../../scripts/import/finish'

export interface ProviderFixture {
  id: number
  cityId: number
  service: string
  firstName: string
  lastName: string
  lat: number
  lng: number
  rateMin: number
  rateMax: number
  years: number
  badges: number
  availability: number
  rankScore: number
  createdAt: string
}

// Above every id of the test catalog, and within the margin the gate gives ids newer than its
// build (NEW_ID_MARGIN in src/gate/gate-filter.ts), as a provider added since the build is.
let nextId = 20_000

/** The shard holding the city `cityId` (by control's cities and the layout), and its number. */
export async function shardOfCityId(cityId: number): Promise<{ shard: number; db: D1Database }> {
  const row = await env.CONTROL.prepare('SELECT slug FROM cities WHERE id = ?')
    .bind(cityId)
    .first<{ slug: string }>()
  const placed = row && databasesOf(env).ofCity(row.slug)
  if (!placed) throw new Error(`no shard holds city ${cityId}`)
  return placed
}

/** Control and every shard: where a city is written (control's, and each shard's copy). */
export function everyDatabase(): D1Database[] {
  const { control, shards } = databasesOf(env)
  return [control, ...shards]
}

/** The shard holding the city with slug `slug`. */
export function shardOf(slug: string): D1Database {
  const placed = databasesOf(env).ofCity(slug)
  if (!placed) throw new Error(`no shard holds city ${slug}`)
  return placed.db
}

/**
 * Control's directory rows of providers and jobs `ids` as their shard holds them now, as the
 * sync's outbox writes them: a row already there keeps its version, a new one has version 0 (any
 * message the sync brings is newer). A test that changes a provider's or job's rows on its shard
 * calls it after, as the sync's outbox would.
 */
export async function listInDirectory(
  shard: number,
  { providers = [], jobs = [] }: { providers?: number[]; jobs?: number[] },
): Promise<void> {
  const db = databasesOf(env).shards[shard] as D1Database
  const [p, j] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT p.id, p.city_id, p.name_slug, p.updated_at FROM providers p
          WHERE p.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(providers)),
    db
      .prepare(
        `SELECT j.id, j.city_id, j.title_slug, j.valid_through, j.posted_at AS updated_at
           FROM jobs j WHERE j.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(jobs)),
  ])
  await env.CONTROL.batch([
    env.CONTROL.prepare(
      `INSERT INTO provider_directory (id, shard, city_id, name_slug, version, updated_at)
       SELECT r.value ->> 'id', ?1, r.value ->> 'city_id', r.value ->> 'name_slug', 0,
              r.value ->> 'updated_at' FROM json_each(?2) AS r WHERE true
       ON CONFLICT (id) DO UPDATE SET shard = excluded.shard, city_id = excluded.city_id,
         name_slug = excluded.name_slug, updated_at = excluded.updated_at`,
    ).bind(shard, JSON.stringify(p?.results ?? [])),
    env.CONTROL.prepare(
      `INSERT INTO job_directory (id, shard, city_id, title_slug, version, valid_through, updated_at)
       SELECT r.value ->> 'id', ?1, r.value ->> 'city_id', r.value ->> 'title_slug', 0,
              r.value ->> 'valid_through', r.value ->> 'updated_at'
         FROM json_each(?2) AS r WHERE true
       ON CONFLICT (id) DO UPDATE SET shard = excluded.shard, city_id = excluded.city_id,
         title_slug = excluded.title_slug, valid_through = excluded.valid_through,
         updated_at = excluded.updated_at`,
    ).bind(shard, JSON.stringify(j?.results ?? [])),
  ])
}

/** The shard control's directory names for provider or job `id`. */
export async function shardOfEntity(
  kind: 'provider' | 'job',
  id: number,
): Promise<{ shard: number; db: D1Database }> {
  const row = await env.CONTROL.prepare(`SELECT shard FROM ${kind}_directory WHERE id = ?`)
    .bind(id)
    .first<{ shard: number }>()
  const db = row && databasesOf(env).shards[row.shard]
  if (!row || !db) throw new Error(`the directory has no ${kind} ${id}`)
  return { shard: row.shard, db }
}

/**
 * Runs `statements` (made on the shard's binding) on the shard holding provider or job `id`,
 * then lists it again in control's directory as its shard now holds it (gone from it, if the
 * shard no longer has it).
 */
export async function onEntityShard(
  kind: 'provider' | 'job',
  id: number,
  statements: (db: D1Database) => D1PreparedStatement[],
): Promise<void> {
  const { shard, db } = await shardOfEntity(kind, id)
  await db.batch(statements(db))
  const table = kind === 'provider' ? 'providers' : 'jobs'
  const held = await db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).bind(id).first()
  if (held) await listInDirectory(shard, kind === 'provider' ? { providers: [id] } : { jobs: [id] })
  else await env.CONTROL.prepare(`DELETE FROM ${kind}_directory WHERE id = ?`).bind(id).run()
}

/**
 * A provider with one service, with defaults for everything a test does not care about: on its
 * city's shard, and in control's directory.
 */
export async function aProvider(
  fields: Partial<ProviderFixture> & { cityId: number; service: string },
) {
  const { shard, db } = await shardOfCityId(fields.cityId)
  const city = await db
    .prepare('SELECT lat, lng FROM cities WHERE id = ?')
    .bind(fields.cityId)
    .first<{ lat: number; lng: number }>()
  const p: ProviderFixture = {
    id: nextId++,
    firstName: 'Test',
    lastName: 'Provider',
    lat: city?.lat ?? 0,
    lng: city?.lng ?? 0,
    rateMin: 15,
    rateMax: 20,
    years: 3,
    badges: 0,
    availability: 0b1111111,
    rankScore: 1,
    createdAt: '2026-01-01T00:00:00Z',
    ...fields,
  }
  await db.batch([
    db
      .prepare(
        `INSERT INTO providers (id, name_slug, first_name, last_name, business_type, city_id, lat, lng,
         headline, bio, years_experience, badges, availability, traits, languages, certifications,
         review_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'CAREGIVER', ?, ?, ?, 'Headline', 'Bio', ?, ?, ?, 0, 'ENGLISH', '', 0, ?, ?)`,
      )
      .bind(
        p.id,
        `${p.firstName.toLowerCase()}-${p.lastName.charAt(0).toLowerCase()}`,
        p.firstName,
        p.lastName,
        p.cityId,
        p.lat,
        p.lng,
        p.years,
        p.badges,
        p.availability,
        p.createdAt,
        p.createdAt,
      ),
    db
      .prepare(
        `INSERT INTO provider_services (provider_id, service, city_id, lat, lng, rank_score, created_at,
         rate_min, rate_max, pay_unit, years_experience, badges, availability, ages, options, schedules)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'hr', ?, ?, ?, 0, 0, 0)`,
      )
      .bind(
        p.id,
        p.service,
        p.cityId,
        p.lat,
        p.lng,
        p.rankScore,
        p.createdAt,
        p.rateMin,
        p.rateMax,
        p.years,
        p.badges,
        p.availability,
      ),
  ])
  await listInDirectory(shard, { providers: [p.id] })
  return p
}

/** Purges the edge cache as ops would after a data change: through the real endpoint. */
export async function purge(body: { urls?: string[]; tags?: string[] }): Promise<Response> {
  const res = await exports.default.fetch(
    new Request('https://www.care.example/__ops/purge', {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
  if (res.status !== 200) throw new Error(`purge failed: ${res.status} ${await res.text()}`)
  return res
}

/**
 * Recomputes the aggregates hub pages and link modules read, as the cron does in its isolate
 * (src/cron/refresh-derived.ts): that isolate, here the worker's, forgets its derived reads.
 */
export async function refreshCatalogStats() {
  await refreshCatalogStatsAt(new Date())
}

/** `refreshCatalogStats` as of `now`. */
export async function refreshCatalogStatsAt(now: Date) {
  const databases = databasesOf(env)
  await Promise.all(databases.shards.map((db) => db.batch(shardStatsStatements(db, now))))
  await copyCityRows(databases)
  await databases.control.batch(controlStatsStatements(databases.control, now))
  memory.derivedReads.clear()
}

export async function cityId(slug: string): Promise<number> {
  const row = await env.CONTROL.prepare('SELECT id FROM cities WHERE slug = ?')
    .bind(slug)
    .first<{ id: number }>()
  if (!row) throw new Error(`no city ${slug} in the test catalog`)
  return row.id
}

/**
 * Builds the gate again from D1, as the cron does. A fresh isolate (`anIsolate()`) loads it at
 * once; the worker's own keeps its copy for five minutes.
 */
export async function rebuildGate(): Promise<void> {
  await saveGate(env.GATE, await buildGate(env.CONTROL, new Date()))
}

/** What the edge cache stores beside a page, with defaults a test overrides where it matters. */
export function anEntryMeta(fields: Partial<EntryMeta> = {}): EntryMeta {
  return {
    storedAt: 1000,
    freshUntil: 2000,
    staleUntil: 3000,
    keepUntil: 4000,
    tags: [],
    etag: 'W/"x"',
    nonce: 'n',
    cacheControl: 'public',
    complete: true,
    ...fields,
  }
}
