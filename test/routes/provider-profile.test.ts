import { env } from 'cloudflare:workers'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { BADGES, WEEKDAYS } from '../../src/catalog/enums'
import {
  CERTIFICATION_LABELS,
  labelsOf,
  LANGUAGE_LABELS,
  RATING_CATEGORY_LABELS,
} from '../../src/catalog/labels'
import type { Certification, Language, RatingCategory } from '../../src/catalog/enums'
import { findService } from '../../src/catalog/services'
import {
  anIsolate,
  canonicalOf,
  cardLinks,
  fetchPage,
  jsonLd,
  ORIGIN,
  page,
  statementsOnceWarm,
  robotsOf,
  textOf,
  warm,
  withClockStill,
} from '../support/fetch-page'
import { onEntityShard, purge, rebuildGate, shardOfEntity } from '../support/builders'
import { fromShards } from '../support/databases'

interface Row {
  id: number
  name_slug: string
  first_name: string
  last_name: string
  business_name: string | null
  business_type: string
  headline: string
  bio: string
  availability: number
  badges: number
  languages: string
  certifications: string
  rating: number | null
  review_count: number
  address: string | null
  capacity: number | null
  opening_hours: string | null
}

async function provider(where: string): Promise<Row> {
  // The lowest id of every shard's first: the catalog's first.
  const [row] = (
    await fromShards<Row>(`SELECT * FROM providers WHERE ${where} ORDER BY id LIMIT 1`)
  ).sort((a, b) => a.id - b.id)
  if (!row) throw new Error(`no provider where ${where}`)
  return row
}

async function serviceRows(id: number) {
  return (
    await (
      await shardOfEntity('provider', id)
    ).db
      .prepare('SELECT * FROM provider_services WHERE provider_id = ?')
      .bind(id)
      .all<{
        service: string
        rate_min: number
        rate_max: number
        ages: number
        options: number
        schedules: number
      }>()
  ).results
}

const CODE = /\b(?:HKS|SCS|GES|PCS|CGS|SNC|SNA|CHDSMBLAL|CHDSMBLAG)\d{3}\b|\b[A-Z]+_[A-Z_]+\b/

describe('provider profiles', () => {
  it('answer 200 for every card of a directory page, with the card’s provider', async () => {
    const { html } = await page('/babysitters/atlanta-ga')
    const links = cardLinks(html)
    expect(links.length).toBe(20)
    for (const href of links) {
      const profile = await page(href)
      expect(profile.res.status).toBe(200)
      expect(canonicalOf(profile.html)).toBe(ORIGIN + href)
      expect(robotsOf(profile.html)).toBe('index,follow')
    }
  })

  it('show a caregiver’s services, rates, availability, languages, certifications and badges as labels', async () => {
    const p = await provider(
      "business_type = 'CAREGIVER' AND certifications != '' AND review_count > 2",
    )
    const { html } = await page(`/p/${p.name_slug}-${p.id}`)
    const text = textOf(html)
    expect(html).toContain(`<h1>${p.first_name} ${p.last_name.charAt(0)}.</h1>`)
    expect(text).not.toContain(p.last_name)
    expect(text).toContain(p.headline)
    for (const row of await serviceRows(p.id)) {
      const service = findService(row.service)
      if (!service) throw new Error(row.service)
      expect(text).toContain(`${service.title}: $${row.rate_min}–$${row.rate_max}/hr`)
      for (const label of [
        ...labelsOf(row.ages, service.ages),
        ...labelsOf(row.options, service.options),
        ...labelsOf(row.schedules, service.schedules),
      ]) {
        expect(text).toContain(label)
      }
    }
    WEEKDAYS.forEach((day, i) => {
      expect(text).toContain(
        `${day.label}: ${p.availability & (2 ** i) ? 'available' : 'not available'}`,
      )
    })
    for (const code of p.languages.split(','))
      expect(text).toContain(LANGUAGE_LABELS[code as Language])
    for (const code of p.certifications.split(','))
      expect(text).toContain(CERTIFICATION_LABELS[code as Certification])
    for (const badge of labelsOf(p.badges, BADGES)) expect(text).toContain(badge)
    expect(text).not.toMatch(CODE)
  })

  it('average each rating category over the reviews and list the reviews', async () => {
    const p = await provider('review_count > 3')
    const averages = (
      await (
        await shardOfEntity('provider', p.id)
      ).db
        .prepare(
          `SELECT j.key AS category, AVG(j.value) AS average FROM reviews r, json_each(r.ratings) j
          WHERE r.provider_id = ? AND j.key != 'OVERALL' GROUP BY j.key`,
        )
        .bind(p.id)
        .all<{ category: RatingCategory; average: number }>()
    ).results
    const { html } = await page(`/p/${p.name_slug}-${p.id}`)
    const text = textOf(html)
    expect(averages.length).toBeGreaterThan(2)
    for (const a of averages)
      expect(text).toContain(
        `${RATING_CATEGORY_LABELS[a.category]} ${a.average.toFixed(1)} out of 5`,
      )
    expect(text).toContain(`Reviews (${p.review_count})`)
    const reviews = html.slice(
      html.indexOf('<ul class="reviews">'),
      html.indexOf('</ul>', html.indexOf('<ul class="reviews">')),
    )
    expect(reviews.match(/<li>/g)?.length).toBe(Math.min(10, p.review_count))
  })

  it('describe a caregiver as a ProfilePage about a Person, with no review stars', async () => {
    const p = await provider("business_type = 'CAREGIVER' AND review_count > 0")
    const { html } = await page(`/p/${p.name_slug}-${p.id}`)
    const [profile, breadcrumbs] = jsonLd(html)
    expect(profile).toMatchObject({
      '@type': 'ProfilePage',
      url: `${ORIGIN}/p/${p.name_slug}-${p.id}`,
      mainEntity: {
        '@type': 'Person',
        name: `${p.first_name} ${p.last_name.charAt(0)}.`,
        description: p.bio,
      },
    })
    expect(breadcrumbs).toMatchObject({ '@type': 'BreadcrumbList' })
    expect(JSON.stringify(jsonLd(html))).not.toMatch(/aggregateRating|ratingValue|"Review"/)
  })

  it('show a daycare centre’s schedules, age groups, capacity, hours and address, as a ChildCare', async () => {
    const p = await provider("business_type = 'SMB' AND review_count > 0")
    const [row] = await serviceRows(p.id)
    const service = findService('day-care')
    if (!row || !service || p.rating === null) throw new Error('no daycare row')
    const { html } = await page(`/p/${p.name_slug}-${p.id}`)
    const text = textOf(html)
    const schedules = labelsOf(row.schedules, service.schedules)
    const ages = labelsOf(row.ages, service.ages)
    expect(schedules.length + ages.length).toBeGreaterThan(0)
    for (const label of [...schedules, ...ages]) expect(text).toContain(label)
    expect(text).toContain(`Capacity ${p.capacity} children`)
    expect(text).toContain(`Address ${p.address}`)
    expect(text).toContain(`Tuition: $${row.rate_min}–$${row.rate_max}/wk`)
    expect(text).not.toMatch(CODE)
    const [business] = jsonLd(html)
    expect(business).toMatchObject({
      '@type': 'ChildCare',
      name: p.business_name,
      address: { streetAddress: p.address },
      aggregateRating: { ratingValue: p.rating.toFixed(1), reviewCount: p.review_count },
    })
    expect(text).toContain(`★ ${p.rating.toFixed(1)} (${p.review_count} review`)
  })

  it('give a daycare centre’s hours on the days its own availability says', async () => {
    const p = await provider("business_type = 'SMB' AND opening_hours IS NOT NULL")
    const path = `/p/${p.name_slug}-${p.id}`
    for (const [mask, days] of [
      [0b0011111, 'Monday to Friday'],
      [0b0010101, 'Monday, Wednesday and Friday'],
      [0b1111111, 'every day'],
    ] as const) {
      await onEntityShard('provider', p.id, (db) => [
        db.prepare('UPDATE providers SET availability = ? WHERE id = ?').bind(mask, p.id),
      ])
      await purge({ tags: [`provider:${p.id}`] })
      const text = textOf((await page(path)).html)
      expect(text).toContain(`Hours ${p.opening_hours}, ${days} `)
    }
  })

  it('link similar providers of the same service in the same city', async () => {
    const { html: directory } = await page('/babysitters/atlanta-ga')
    const [first, second] = cardLinks(directory)
    const { html } = await page(first ?? '', { headers: { 'user-agent': 'Googlebot/2.1' } })
    expect(html).toContain('More babysitters in Atlanta, GA')
    expect(cardLinks(html)).toContain(second)
    expect(cardLinks(html)).not.toContain(first)
  })

  it('answer a stale or missing name part with 301 to the canonical URL', async () => {
    const p = await provider('1 = 1')
    for (const path of [`/p/old-name-${p.id}`, `/p/${p.id}`]) {
      const res = await fetchPage(path)
      expect(res.status).toBe(301)
      expect(res.headers.get('location')).toBe(`/p/${p.name_slug}-${p.id}`)
    }
  })

  it('keep a redirect of another slug at the edge for five minutes, tagged with the provider', async () => {
    const p = await provider('1 = 1')
    const path = `/p/a-former-name-${p.id}`
    const prefetch = { headers: { purpose: 'prefetch' } }
    // Isolates that have not read the provider ask the edge cache.
    const first = await anIsolate().settled(path, prefetch)
    expect([first.res.status, first.cache]).toEqual([301, 'MISS'])
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300')
    const again = await anIsolate().settled(path, prefetch)
    expect([again.res.status, again.cache]).toEqual([301, 'HIT'])
    expect(again.res.headers.get('location')).toBe(`/p/${p.name_slug}-${p.id}`)
    expect(again.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300')
    expect(again.res.headers.get('cache-tag')).toBe(`page:seoProviderProfile,provider:${p.id}`)
    expect(again.res.headers.has('etag')).toBe(false)
    // Once an isolate knows the purges, the stored redirect costs no D1 statement; once it has
    // served it, so does any other name part, from its memory.
    const isolate = anIsolate()
    await withClockStill(async () => {
      await warm(isolate)
      const hit = await isolate.statements(path, prefetch)
      expect([hit.res.status, hit.cache, hit.statements]).toEqual([301, 'HIT', []])
      const known = await isolate.statements(`/p/another-former-name-${p.id}`, prefetch)
      expect([known.res.status, known.cache, known.statements]).toEqual([301, 'BYPASS', []])
      expect(known.res.headers.get('location')).toBe(`/p/${p.name_slug}-${p.id}`)
      expect(known.res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300')
    })
  })

  it('redirect made-up name parts of an id the isolate has read with no D1 statement and no cache entry each', async () => {
    const p = await provider('review_count > 1')
    const canonical = `/p/${p.name_slug}-${p.id}`
    const madeUp = ['made-up', 'another-name', 'x', 'yet-another-one-2'].map(
      (n) => `/p/${n}-${p.id}`,
    )
    const stored = storedPaths()
    // An isolate that has rendered the profile answers every other name part from memory.
    const isolate = anIsolate()
    await withClockStill(async () => {
      await warm(isolate)
      await isolate.settled(canonical)
      for (const path of madeUp) {
        const { res, statements } = await isolate.statements(path)
        expect([res.status, res.headers.get('location'), statements]).toEqual([301, canonical, []])
        expect(res.headers.get('cache-tag')).toBe(`page:seoProviderProfile,provider:${p.id}`)
      }
    })
    expect(stored.filter((path) => madeUp.includes(path))).toEqual([])
    // A fresh isolate asked for made-up names alone reads the provider once, for the first.
    const cold = anIsolate()
    const reads: number[] = []
    for (const path of madeUp) {
      const { res, statements } = await cold.statements(path)
      expect([res.status, res.headers.get('location')]).toEqual([301, canonical])
      reads.push(statements.filter((sql) => /\bproviders\b/.test(sql)).length)
    }
    expect(reads[0]).toBeGreaterThan(0)
    expect(reads.slice(1)).toEqual([0, 0, 0])
    expect(stored.filter((path) => madeUp.includes(path))).toEqual([madeUp[0]])
  })

  it('follow a rename once its purge is known: a name part kept from before is never redirected to', async () => {
    const p = await provider('review_count > 2')
    const isolate = anIsolate()
    await isolate.settled(`/p/${p.name_slug}-${p.id}`)
    const before = await isolate.settled(`/p/made-up-${p.id}`)
    expect([before.res.headers.get('location'), before.cache]).toEqual([
      `/p/${p.name_slug}-${p.id}`,
      'BYPASS',
    ])
    await onEntityShard('provider', p.id, (db) => [
      db.prepare("UPDATE providers SET name_slug = 'renamed-r' WHERE id = ?").bind(p.id),
    ])
    // As catalog sync does after a change: purge the provider's pages.
    await purge({ tags: [`provider:${p.id}`] })
    await isolate.memory.purges.refresh(env.CONTROL)
    const after = await isolate.settled(`/p/made-up-${p.id}`)
    expect([after.res.headers.get('location'), after.cache]).toEqual([
      `/p/renamed-r-${p.id}`,
      'MISS',
    ])
    const renamed = await isolate.fetchPage(`/p/renamed-r-${p.id}`)
    expect(renamed.status).toBe(200)
  })

  it('answer an unknown id with 404, through the gate when it can tell', async () => {
    const rejected = await statementsOnceWarm('/p/nobody-0')
    expect([rejected.res.status, rejected.statements]).toEqual([404, []])
    const p = await provider('1 = 1')
    await onEntityShard('provider', p.id, (db) => [
      db.prepare('DELETE FROM reviews WHERE provider_id = ?').bind(p.id),
      db.prepare('DELETE FROM provider_services WHERE provider_id = ?').bind(p.id),
      db.prepare('DELETE FROM providers WHERE id = ?').bind(p.id),
    ])
    // As the data pipeline does after removing a provider: purge its pages from the edge.
    await purge({ tags: [`provider:${p.id}`] })
    expect((await fetchPage(`/p/${p.name_slug}-${p.id}`)).status).toBe(404)
    // Gone from the directory too, the gate rebuilt: the id is positive and below the highest
    // (no shortcut for ids under 1 or a watermark applies), and the gate holds no ids, so the
    // directory's one read decides, and no shard is read.
    const [highest] = (
      await fromShards<{ id: number }>('SELECT MAX(id) AS id FROM providers')
    ).sort((a, b) => b.id - a.id)
    expect(p.id).toBeGreaterThan(0)
    expect(p.id).toBeLessThan(highest?.id ?? 0)
    await env.CONTROL.prepare('DELETE FROM provider_directory WHERE id = ?').bind(p.id).run()
    await rebuildGate()
    const gone = await statementsOnceWarm(`/p/${p.name_slug}-${p.id}`)
    expect(gone.res.status).toBe(404)
    // Said when it fails (seen once, in the one-shard step on a loaded machine): how the 404 was
    // decided, and every statement the request ran.
    const decided = `${gone.res.headers.get('server-timing')}\n${gone.statements.join('\n')}`
    expect(
      gone.statements.filter((sql) => sql.includes('provider_directory')),
      decided,
    ).toHaveLength(1)
    expect(gone.statements.filter((sql) => /\bFROM providers\b/.test(sql))).toEqual([])
    // The provider after it still exists, and still passes.
    const next = await provider('1 = 1')
    expect((await fetchPage(`/p/${next.name_slug}-${next.id}`)).status).toBe(200)
  })
})

/** The paths of the pages stored in the Cache API from now on, as they are put. */
function storedPaths(): string[] {
  const paths: string[] = []
  const put = caches.default.put.bind(caches.default)
  const spy = vi.spyOn(caches.default, 'put').mockImplementation((request, response) => {
    paths.push(new URL(request instanceof Request ? request.url : request).pathname)
    return put(request, response)
  })
  onTestFinished(() => spy.mockRestore())
  return paths
}
