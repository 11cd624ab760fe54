import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { SEED_CITIES } from '../../src/catalog/cities'
import { SERVICES } from '../../src/catalog/services'
import { milesBetween } from '../../src/lib/geo'
import {
  aProvider,
  cityId,
  onEntityShard,
  purge,
  refreshCatalogStats,
  shardOf,
} from '../support/builders'
import {
  anIsolate,
  canonicalOf,
  cardLinks,
  jsonLd,
  ORIGIN,
  page,
  robotsOf,
  textOf,
} from '../support/fetch-page'
import { fromShards } from '../support/databases'

const ATLANTA = '/babysitters/atlanta-ga'

const idsOf = (html: string) => cardLinks(html).map((href) => Number(/-(\d+)$/.exec(href)?.[1]))

async function all<T>(sql: string, ...params: (string | number)[]): Promise<T[]> {
  return (
    await shardOf('atlanta-ga')
      .prepare(sql)
      .bind(...params)
      .all<T>()
  ).results
}

/** `sql`'s rows on control (its cities and its copies of the cities' stats). */
async function onControl<T>(sql: string, ...params: (string | number)[]): Promise<T[]> {
  return (
    await env.CONTROL.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results
}

async function listingIds(
  where: string,
  order = 'rank_score DESC, provider_id',
  ...params: (string | number)[]
) {
  const rows = await all<{ id: number }>(
    `SELECT provider_id AS id FROM provider_services ps JOIN cities c ON c.id = ps.city_id
      WHERE ps.service = 'babysitters' AND c.slug = 'atlanta-ga' ${where} ORDER BY ${order}`,
    ...params,
  )
  return rows.map((r) => r.id)
}

describe('every service in every seed city', () => {
  it.each(SERVICES.flatMap((s) => SEED_CITIES.map((c) => [s.slug, c] as const)))(
    '/%s/%s answers 200 with provider cards',
    async (service, city) => {
      const { res, html } = await page(`/${service}/${city}`)
      expect(res.status).toBe(200)
      expect(cardLinks(html).length).toBeGreaterThan(0)
    },
  )
})

describe('cards', () => {
  it('show what D1 holds for the top-ranked provider', async () => {
    const [top] = await all<{
      id: number
      name_slug: string
      first_name: string
      last_name: string
      rate_min: number
      rate_max: number
      review_count: number
      rating: number | null
      years_experience: number
    }>(
      `SELECT p.*, ps.rate_min, ps.rate_max FROM provider_services ps JOIN providers p ON p.id = ps.provider_id
        WHERE ps.service = 'babysitters' AND ps.city_id = ? ORDER BY ps.rank_score DESC, ps.provider_id LIMIT 1`,
      await cityId('atlanta-ga'),
    )
    if (!top) throw new Error('no babysitters in Atlanta')
    const { html } = await page(ATLANTA)
    const card = html.slice(
      html.indexOf('<li class="card">'),
      html.indexOf('</li>', html.indexOf('<li class="card">')),
    )
    expect(card).toContain(`href="/p/${top.name_slug}-${top.id}"`)
    expect(card).toContain(`${top.first_name} ${top.last_name.charAt(0)}.`)
    expect(card).not.toContain(top.last_name)
    expect(card).toContain(`$${top.rate_min}–$${top.rate_max}/hr`)
    expect(card).toContain(
      `${top.years_experience} ${top.years_experience === 1 ? 'year' : 'years'} experience`,
    )
    if (top.rating !== null)
      expect(card).toContain(`★ ${top.rating.toFixed(1)} (${top.review_count} review`)
  })
})

describe('one year of experience', () => {
  it('reads "1 year" on the card and the profile, never "1 years"', async () => {
    const p = await aProvider({
      cityId: await cityId('marietta-ga'),
      service: 'housekeeping',
      years: 1,
      rankScore: 1e6,
    })
    try {
      await purge({ urls: ['/housekeeping/marietta-ga'] })
      const card = textOf((await page('/housekeeping/marietta-ga')).html)
      expect(card).toContain('New · 1 year experience')
      const { html } = await page(`/p/test-p-${p.id}`)
      expect(textOf(html)).toContain('1 year experience')
      expect(html).toContain('1 year of experience in Marietta, GA.')
      expect(html).not.toMatch(/\b1 years\b/)
    } finally {
      await onEntityShard('provider', p.id, (db) => [
        db.prepare('DELETE FROM provider_services WHERE provider_id = ?').bind(p.id),
        db.prepare('DELETE FROM providers WHERE id = ?').bind(p.id),
      ])
      await purge({ urls: ['/housekeeping/marietta-ga'] })
    }
  })
})

describe('pagination', () => {
  it('gives page 2 the next twenty providers, its own canonical and crawlable links', async () => {
    const order = await listingIds('')
    const one = await page(ATLANTA)
    const two = await page(`${ATLANTA}?page=2`)
    expect(idsOf(one.html)).toEqual(order.slice(0, 20))
    expect(idsOf(two.html)).toEqual(order.slice(20, 40))
    expect(canonicalOf(one.html)).toBe(`${ORIGIN}${ATLANTA}`)
    expect(canonicalOf(two.html)).toBe(`${ORIGIN}${ATLANTA}?page=2`)
    expect(robotsOf(two.html)).toBe('index,follow')
    expect(one.html).toContain(`<a href="${ATLANTA}?page=2" rel="next">Next</a>`)
    expect(two.html).toContain(`<a href="${ATLANTA}" rel="prev">Previous</a>`)
  })

  it('answers 404 past the last page rather than an empty 200', async () => {
    const pages = Math.ceil((await listingIds('')).length / 20)
    expect((await page(`${ATLANTA}?page=${pages}`)).res.status).toBe(200)
    expect((await page(`${ATLANTA}?page=${pages + 1}`)).res.status).toBe(404)
  })
})

describe('filters', () => {
  it.each([
    ['distance=3', (p: Row) => milesBetween(ATLANTA_CENTRE, p) <= 3.05],
    ['rate=20-25', (p: Row) => p.rate_min <= 25 && p.rate_max >= 20],
    ['experience=5', (p: Row) => p.years_experience >= 5],
    ['availability=saturday,sunday', (p: Row) => (p.availability & 0b1100000) === 0b1100000],
    [
      'availability=saturday&availability=sunday',
      (p: Row) => (p.availability & 0b1100000) === 0b1100000,
    ],
    ['badges=background-check', (p: Row) => (p.badges & 1) === 1],
    ['ages=toddler', (p: Row) => (p.ages & 2) === 2],
  ])(
    '?%s keeps only matching providers and is noindex with the plain page as canonical',
    async (query, matches) => {
      const rows = await all<Row>(
        `SELECT * FROM provider_services WHERE service = 'babysitters' AND city_id = ?`,
        await cityId('atlanta-ga'),
      )
      const expected = rows.filter(matches)
      const { res, html } = await page(`${ATLANTA}?${query}`)
      expect(res.status).toBe(200)
      expect(robotsOf(html)).toBe('noindex,follow')
      expect(res.headers.get('x-seo-gate')).toBe('noindex; reason=filtered')
      expect(canonicalOf(html)).toBe(`${ORIGIN}${ATLANTA}`)
      const shown = new Set(idsOf(html))
      const ids = new Set(expected.map((r) => r.provider_id))
      expect(expected.length).toBeGreaterThan(0)
      expect(expected.length).toBeLessThan(rows.length)
      for (const id of shown) expect(ids.has(id)).toBe(true)
      expect(textOf(html)).toContain(
        expected.length === 1
          ? '1 babysitter matches your filters'
          : `${expected.length} babysitters match your filters`,
      )
    },
  )

  it('offers and applies the service filters of other services', async () => {
    const { html } = await page('/housekeeping/atlanta-ga?services=deep-cleaning')
    const rows = await all<{ provider_id: number }>(
      `SELECT provider_id FROM provider_services WHERE service = 'housekeeping' AND city_id = ? AND (options & 64) = 64`,
      await cityId('atlanta-ga'),
    )
    const ids = new Set(rows.map((r) => r.provider_id))
    expect(idsOf(html).every((id) => ids.has(id))).toBe(true)
    expect(html).toContain('name="services" checked="" value="deep-cleaning"')
    const tutors = await page('/tutors/atlanta-ga?subjects=math')
    expect(tutors.res.status).toBe(200)
    const daycare = await page('/day-care/atlanta-ga?schedule=full-time')
    expect(daycare.res.status).toBe(200)
    expect(daycare.html).toContain('name="schedule" checked="" value="full-time"')
  })

  it('sorts NEWEST by the date the provider joined', async () => {
    const { html } = await page(`${ATLANTA}?sort=newest`)
    expect(idsOf(html)).toEqual(
      (await listingIds('', 'ps.created_at DESC, provider_id')).slice(0, 20),
    )
  })

  it('says how the cards are sorted in words, and newest where ranking is off', async () => {
    expect(textOf((await page(ATLANTA)).html)).toContain('Sorted by: Recommended')
    expect(textOf((await page(`${ATLANTA}?sort=newest`)).html)).toContain('Sorted by: Newest')
    expect(textOf((await page('/babysitting-jobs/atlanta-ga')).html)).toContain(
      'Sorted by: Recommended',
    )
    await env.FLAGS.put(
      'flags',
      JSON.stringify({ flags: { rankedDirectorySorting: { state: 'DISABLED', default: false } } }),
    )
    try {
      // An isolate that reads the store as it now is.
      const text = textOf((await anIsolate().page(ATLANTA)).html)
      expect(text).toContain('Sorted by: Newest')
      expect(text).not.toContain('Sorted by: Recommended')
    } finally {
      await env.FLAGS.delete('flags')
    }
  })

  it('says so, with a way back, when nothing matches', async () => {
    const { res, html } = await page(`${ATLANTA}?distance=1&experience=10&rate=45-50`)
    expect(res.status).toBe(200)
    expect(cardLinks(html)).toEqual([])
    expect(textOf(html)).toContain('No babysitters in Atlanta, GA match these filters.')
    expect(robotsOf(html)).toBe('noindex,follow')
  })

  it.each([
    'distance=7',
    'distance=abc',
    'rate=10-20',
    'experience=4',
    'availability=someday',
    'badges=famous',
    'sort=cheapest',
    'page=0',
    'page=abc',
    'page=1.5',
    'distance=5&distance=10',
  ])('answers ?%s with 400', async (query) => {
    expect((await page(`${ATLANTA}?${query}`)).res.status).toBe(400)
  })

  it('ignores tracking parameters and filters the service does not offer', async () => {
    const { res, html } = await page(
      `${ATLANTA}?utm_source=news&gclid=abc&fbclid=x&subjects=math&distance=`,
    )
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('index,follow')
    expect(canonicalOf(html)).toBe(`${ORIGIN}${ATLANTA}`)
    expect(idsOf(html)).toEqual((await listingIds('')).slice(0, 20))
  })

  it('treats a repeated identical value as one', async () => {
    expect((await page(`${ATLANTA}?distance=5&distance=5`)).res.status).toBe(200)
  })
})

describe('thin pages', () => {
  it('keeps a city with too few providers out of the index but serves it to people', async () => {
    const [thin] = await onControl<{ slug: string; providers: number }>(
      `SELECT c.slug, s.providers FROM service_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'babysitters' AND s.providers < 5 ORDER BY c.slug LIMIT 1`,
    )
    if (!thin) throw new Error('the test catalog has no thin babysitter city')
    const { res, html } = await page(`/babysitters/${thin.slug}`)
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(res.headers.get('x-robots-tag')).toBe('noindex,follow')
    expect(res.headers.get('x-seo-gate')).toBe('noindex; reason=thin')
    expect(textOf(html)).toContain('Only a few babysitters have profiles')
  })
})

describe('links', () => {
  it('links nearby cities only once they have enough providers to be indexable', async () => {
    const { html: before } = await page(ATLANTA)
    expect(before).not.toContain('href="/babysitters/marietta-ga"')
    const marietta = await cityId('marietta-ga')
    for (let i = 0; i < 5; i++) await aProvider({ cityId: marietta, service: 'babysitters' })
    await refreshCatalogStats()
    await purge({ urls: [ATLANTA] })
    const { html: after } = await page(ATLANTA)
    expect(after).toContain('<a href="/babysitters/marietta-ga">Marietta, GA</a>')
  })

  it('links the other services of the city that have enough providers', async () => {
    const { html } = await page(ATLANTA)
    const counts = await onControl<{ service: string; providers: number }>(
      'SELECT service, providers FROM service_city_stats WHERE city_id = ?',
      await cityId('atlanta-ga'),
    )
    for (const { service, providers } of counts) {
      if (service === 'babysitters') continue
      expect(html.includes(`href="/${service}/atlanta-ga"`)).toBe(providers >= 5)
    }
  })

  it('states the visible breadcrumbs as BreadcrumbList', async () => {
    const { html } = await page(ATLANTA)
    const visible = [...html.matchAll(/<nav class="breadcrumbs".*?<\/nav>/g)][0]?.[0] ?? ''
    expect(visible).toContain('<a href="/babysitters">Babysitters</a>')
    expect(visible).toContain('<a href="/babysitters/ga">Georgia</a>')
    expect(visible).toContain('<li aria-current="page">Atlanta</li>')
    expect(jsonLd(html)).toContainEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Babysitters', item: `${ORIGIN}/babysitters` },
        { '@type': 'ListItem', position: 2, name: 'Georgia', item: `${ORIGIN}/babysitters/ga` },
        { '@type': 'ListItem', position: 3, name: 'Atlanta', item: `${ORIGIN}${ATLANTA}` },
      ],
    })
  })

  it('summarises local rates computed from the providers’ rates against the national figure', async () => {
    const [local] = await all<{ avg: number; lo: number; hi: number; n: number }>(
      `SELECT AVG((rate_min + rate_max) / 2.0) AS avg, MIN(rate_min) AS lo, MAX(rate_max) AS hi, COUNT(*) AS n
         FROM provider_services WHERE service = 'babysitters' AND city_id = ?`,
      await cityId('atlanta-ga'),
    )
    // Every shard's sum and count, for the average of the whole catalog.
    const parts = await fromShards<{ sum: number; n: number }>(
      `SELECT SUM((rate_min + rate_max) / 2.0) AS sum, COUNT(*) AS n FROM provider_services WHERE service = 'babysitters'`,
    )
    const national = {
      avg: parts.reduce((s, p) => s + (p.sum ?? 0), 0) / parts.reduce((n, p) => n + p.n, 0),
    }
    if (!local || !national) throw new Error('no rates')
    const text = textOf((await page(ATLANTA)).html)
    expect(text).toContain(
      `Average rate: $${local.avg.toFixed(2)}/hr (range $${local.lo}–$${local.hi}/hr).`,
    )
    expect(text).toContain(`National average: $${national.avg.toFixed(2)}/hr`)
    expect(text).toContain(`Based on ${local.n} caregiver profiles`)
  })
})

interface Row {
  provider_id: number
  lat: number
  lng: number
  rate_min: number
  rate_max: number
  years_experience: number
  availability: number
  badges: number
  ages: number
}

const ATLANTA_CENTRE = await env.CONTROL.prepare(
  "SELECT lat, lng FROM cities WHERE slug = 'atlanta-ga'",
)
  .first<{
    lat: number
    lng: number
  }>()
  .then((c) => c ?? { lat: 0, lng: 0 })
