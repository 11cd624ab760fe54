import { env, exports } from 'cloudflare:workers'
import type { EntryMeta } from '../../src/cache/entry-meta'
import { memory } from '../../src/app'
import { refreshStats } from '../../src/data/refresh-stats'
import { buildGate } from '../../src/gate/build-gate'
import { saveGate } from '../../src/gate/gate-store'

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

/** A provider with one service, with defaults for everything a test does not care about. */
export async function aProvider(
  fields: Partial<ProviderFixture> & { cityId: number; service: string },
) {
  const city = await env.DB.prepare('SELECT lat, lng FROM cities WHERE id = ?')
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
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO providers (id, name_slug, first_name, last_name, business_type, city_id, lat, lng,
         headline, bio, years_experience, badges, availability, traits, languages, certifications,
         review_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'CAREGIVER', ?, ?, ?, 'Headline', 'Bio', ?, ?, ?, 0, 'ENGLISH', '', 0, ?, ?)`,
    ).bind(
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
    env.DB.prepare(
      `INSERT INTO provider_services (provider_id, service, city_id, lat, lng, rank_score, created_at,
         rate_min, rate_max, pay_unit, years_experience, badges, availability, ages, options, schedules)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'hr', ?, ?, ?, 0, 0, 0)`,
    ).bind(
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
  await refreshStats(env.DB, new Date())
  memory.derivedReads.clear()
}

export async function cityId(slug: string): Promise<number> {
  const row = await env.DB.prepare('SELECT id FROM cities WHERE slug = ?')
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
  await saveGate(env.GATE, await buildGate(env.DB))
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
