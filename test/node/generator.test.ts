import { describe, expect, it } from 'vitest'
import { SEED_CITIES } from '../../src/catalog/cities'
import { RATING_CATEGORIES } from '../../src/catalog/enums'
import { findService, SERVICES } from '../../src/catalog/services'
import type { CityRows } from '../../scripts/seed/city-rows'
import { generateCatalog, LARGE, providersFor } from '../../scripts/seed/generate-catalog'
import { MAX_SEED_AGE_DAYS, seedVerdict } from '../../scripts/seed/freshness'
import { catalogPlaces } from '../../scripts/seed/places'
import { insertStatements, sqlLiteral } from '../../scripts/seed/sql'

const NOW = new Date('2026-11-01T00:00:00Z')
const generate = (cities: number, scale = 0.1, seed = 1) => [
  ...generateCatalog(catalogPlaces(cities), { scale, seed, now: NOW }),
]

describe('places', () => {
  it('start with the seed’s twenty cities, from real US place data', () => {
    const places = catalogPlaces(400)
    expect(places.slice(0, 20).map((p) => p.slug)).toEqual([...SEED_CITIES])
    expect(new Set(places.map((p) => p.slug)).size).toBe(400)
    const atlanta = places[0]
    expect(atlanta).toMatchObject({ name: 'Atlanta', stateCode: 'GA' })
    expect(atlanta?.lat).toBeCloseTo(33.75, 1)
    expect(atlanta?.population).toBeGreaterThan(400_000)
  })
})

describe('generateCatalog', () => {
  it('is deterministic', () => {
    expect(JSON.stringify(generate(25))).toBe(JSON.stringify(generate(25)))
    expect(JSON.stringify(generate(25, 0.1, 2))).not.toBe(JSON.stringify(generate(25)))
  })

  it('gives a city the same people whatever else is generated', () => {
    const alone = generate(20)[19]
    const withOthers = generate(30)[19]
    const names = (rows?: CityRows) => rows?.providers.map((p) => `${p.first_name} ${p.last_name}`)
    expect(names(withOthers)).toEqual(names(alone))
  })

  it('reaches 30,000 providers in 400 cities at the default scale', () => {
    const places = catalogPlaces(400)
    const total = places.reduce((n, p, i) => n + providersFor(p, i < 20, 1), 0)
    expect(total).toBeGreaterThanOrEqual(30_000)
  })

  it('reaches 1,000,000 providers in every US place at the large setting', () => {
    const places = catalogPlaces(LARGE.cities)
    const total = places.reduce((n, p, i) => n + providersFor(p, i < 20, LARGE.scale), 0)
    expect(places.length).toBeGreaterThan(16_000)
    expect(total).toBeGreaterThanOrEqual(1_000_000)
  })

  it('says years in the right number, and no review sentence twice on one profile', () => {
    const rows = generate(20, 0.5)
    const providers = rows.flatMap((r) => r.providers)
    const texts = providers.flatMap((p) => [String(p.headline), String(p.bio)])
    expect(texts.filter((t) => /\b1 years\b/.test(t))).toEqual([])
    expect(texts.some((t) => /\b1 year\b/.test(t))).toBe(true)
    const byProvider = new Map<unknown, string[]>()
    for (const r of rows.flatMap((c) => c.reviews)) {
      const sentences = String(r.body).match(/[^.!?]+[.!?]/g) ?? []
      byProvider.set(r.provider_id, [...(byProvider.get(r.provider_id) ?? []), ...sentences])
    }
    const busiest = Math.max(...[...byProvider.values()].map((s) => s.length))
    expect(busiest).toBeGreaterThan(12)
    for (const sentences of byProvider.values())
      expect(sentences.length).toBe(new Set(sentences.map((s) => s.trim())).size)
  })

  it('gives no two providers of a city the same headline, at the route tests’ scale', () => {
    for (const city of generate(20, 0.25)) {
      const headlines = city.providers.map((p) => p.headline)
      expect(headlines.length).toBe(new Set(headlines).size)
    }
  })

  it('writes providers a family can read and rates that fit the filters', () => {
    const rows = generate(20)
    const providers = rows.flatMap((r) => r.providers)
    const listings = rows.flatMap((r) => r.provider_services)
    const reviews = rows.flatMap((r) => r.reviews)
    for (const p of providers) {
      expect(String(p.bio).length).toBeGreaterThan(60)
      expect(p.name_slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    }
    for (const l of listings) {
      const service = findService(String(l.service))
      expect(l.pay_unit).toBe(service?.payUnit)
      expect(Number(l.rate_min)).toBeLessThan(Number(l.rate_max))
      if (l.pay_unit === 'hr') expect(Number(l.rate_max)).toBeLessThanOrEqual(50)
    }
    // Every service has listings: au pairs and errand runners too.
    expect(new Set(listings.map((l) => l.service)).size).toBe(SERVICES.length)
    expect(SERVICES.length).toBe(12)
    // An au pair's stipend is weekly, and an au pair speaks their own language as well.
    const auPairs = new Set(
      listings.filter((l) => l.service === 'au-pairs').map((l) => Number(l.provider_id)),
    )
    expect(auPairs.size).toBeGreaterThan(0)
    for (const l of listings.filter((l) => l.service === 'au-pairs')) expect(l.pay_unit).toBe('wk')
    for (const p of providers.filter((p) => auPairs.has(Number(p.id)))) {
      const languages = String(p.languages).split(',')
      expect([languages.length, languages[0]]).toEqual([2, 'ENGLISH'])
    }
    expect(providers.some((p) => p.business_type === 'SMB' && p.address && p.capacity)).toBe(true)
    for (const r of reviews) {
      const ratings = JSON.parse(String(r.ratings)) as Record<string, number>
      expect(
        Object.keys(ratings).every((k) => (RATING_CATEGORIES as readonly string[]).includes(k)),
      ).toBe(true)
      expect(ratings.OVERALL).toBe(r.rating)
    }
    const rated = providers.filter((p) => p.review_count)
    const p = rated[0]
    const own = reviews.filter((r) => r.provider_id === p?.id)
    expect(own.length).toBe(p?.review_count)
    expect(p?.rating).toBeCloseTo(own.reduce((s, r) => s + Number(r.rating), 0) / own.length, 2)
  })

  it('posts open and already closed jobs, every job family open in every seed city', () => {
    const rows = generate(20)
    for (const city of rows) {
      const open = city.jobs.filter((j) => String(j.valid_through) > NOW.toISOString())
      expect(new Set(open.map((j) => j.service)).size).toBe(9)
    }
    const jobs = rows.flatMap((r) => r.jobs)
    const closed = jobs.filter((j) => String(j.valid_through) <= NOW.toISOString())
    expect(closed.length / jobs.length).toBeGreaterThan(0.1)
    for (const j of jobs) {
      expect(Number(j.pay_min)).toBeLessThan(Number(j.pay_max))
      expect(String(j.posted_at) < String(j.valid_through)).toBe(true)
      expect(String(j.title_slug)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(String(j.title)).not.toMatch(/[{}]/)
    }
  })
})

describe('sql', () => {
  it('escapes text and refuses what SQL cannot hold', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'")
    expect(sqlLiteral(null)).toBe('NULL')
    expect(() => sqlLiteral(Number.NaN)).toThrow()
  })

  it('splits inserts under D1’s statement size limit', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, text: 'x'.repeat(200) }))
    const statements = [...insertStatements('t', rows)]
    expect(statements.length).toBeGreaterThan(1)
    for (const s of statements) expect(s.length).toBeLessThan(100_000)
  })
})

describe('seedVerdict', () => {
  const seededAt = '2026-11-01T00:00:00.000Z'
  const after = (days: number) => new Date(Date.parse(seededAt) + days * 86_400_000)

  it('keeps a catalog of the same version seeded within the last few days', () => {
    expect(seedVerdict({ version: 'v1', seededAt }, 'v1', after(0.5))).toEqual({ seed: false })
    expect(seedVerdict({ version: 'v1', seededAt }, 'v1', after(MAX_SEED_AGE_DAYS))).toEqual({
      seed: false,
    })
  })

  it('seeds again a catalog older than that, whose jobs are closing', () => {
    expect(seedVerdict({ version: 'v1', seededAt }, 'v1', after(21))).toEqual({
      seed: true,
      reason: 'seeded 21 days ago, its jobs and activities are closing',
    })
    expect(
      seedVerdict({ version: 'v1', seededAt }, 'v1', after(MAX_SEED_AGE_DAYS + 0.1)).seed,
    ).toBe(true)
  })

  it('seeds when forced, when there is no catalog or no date, and when anything that shapes it changed', () => {
    const now = after(0)
    expect(seedVerdict({ version: 'v1', seededAt }, 'v1', now, true).seed).toBe(true)
    expect(seedVerdict({ version: null, seededAt: null }, 'v1', now).seed).toBe(true)
    expect(seedVerdict({ version: 'v1', seededAt: null }, 'v1', now).seed).toBe(true)
    expect(seedVerdict({ version: 'v0', seededAt }, 'v1', now).seed).toBe(true)
  })
})
