import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { aProvider, everyDatabase, refreshCatalogStats } from '../support/builders'
import {
  canonicalOf,
  cardLinks,
  statementsOnceWarm,
  jsonLd,
  ORIGIN,
  page,
  robotsOf,
  textOf,
} from '../support/fetch-page'

async function all<T>(sql: string, ...params: (string | number)[]): Promise<T[]> {
  return (
    await env.CONTROL.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results
}

describe('state pages (SEGMENTATION_STATE)', () => {
  it('list the cities of the state worth a visit, with their counts, and top providers', async () => {
    const cities = await all<{ slug: string; name: string; providers: number }>(
      `SELECT c.slug, c.name, s.providers FROM service_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'babysitters' AND s.state_code = 'GA'`,
    )
    const { res, html } = await page('/babysitters/ga')
    expect(res.status).toBe(200)
    expect(html).toContain('<h1>Babysitters in Georgia</h1>')
    expect(robotsOf(html)).toBe('index,follow')
    expect(canonicalOf(html)).toBe(`${ORIGIN}/babysitters/ga`)
    for (const city of cities) {
      const link = `<a href="/babysitters/${city.slug}">${city.name}</a><span class="count"> (${city.providers})</span>`
      expect(html.includes(link)).toBe(city.providers >= 5)
    }
    expect(cardLinks(html).length).toBeGreaterThan(0)
    expect(jsonLd(html)[0]).toMatchObject({ '@type': 'BreadcrumbList' })
  })

  it('keep a state without providers out of the index and say so', async () => {
    const { res, html } = await page('/babysitters/wy')
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(textOf(html)).toContain('No babysitters in Wyoming have profiles yet.')
  })

  it('link only the cities with the most providers, however many the state has, and sum the state whole', async () => {
    // The most a state page links, so that its size does not grow with the catalog
    // (docs/performance.md): a larger bound fails here, on purpose.
    const LINKED = 24
    // Two more cities worth a link than that, in a state the test catalog leaves empty: the two
    // with the fewest providers are left out, yet listed in the sitemaps.
    const cities = Array.from({ length: LINKED + 2 }, (_, k) => ({
      id: 900_000 + k,
      slug: `town-${k}-vt`,
      name: `Town ${k}`,
      population: 100_000 - k * 1000,
      providers: k < LINKED ? 6 : 5,
    }))
    for (const db of everyDatabase())
      await db.batch(
        cities.map((c) =>
          db
            .prepare(
              `INSERT INTO cities (id, slug, name, state_code, lat, lng, population)
           VALUES (?, ?, ?, 'VT', 44, -72.6, ?)`,
            )
            .bind(c.id, c.slug, c.name, c.population),
        ),
      )
    for (const c of cities)
      for (let i = 0; i < c.providers; i++)
        await aProvider({ cityId: c.id, service: 'babysitters' })
    await refreshCatalogStats()

    const { res, html } = await page('/babysitters/vt')
    expect(res.status).toBe(200)
    const linked = [...html.matchAll(/<a href="\/babysitters\/(town-\d+-vt)">/g)].map((m) => m[1])
    const kept = cities.slice(0, LINKED)
    // Largest first (by population), as before.
    expect(linked).toEqual(kept.map((c) => c.slug))
    expect(textOf(html)).toContain(
      `${cities.reduce((n, c) => n + c.providers, 0)} babysitters in ${cities.length} places across Vermont, ` +
        `${kept.length * 6} of them in the ${kept.length} cities with the most.`,
    )
    const sitemaps = [
      ...(await page('/sitemap.xml')).html.matchAll(
        /<loc>[^<]+(\/sitemaps\/directories-\d+\.xml)</g,
      ),
    ]
    let listed = ''
    for (const [, path] of sitemaps) listed += (await page(path ?? '')).html
    for (const c of cities) expect(listed).toContain(`${ORIGIN}/babysitters/${c.slug}<`)
  }, 60_000)

  it('answer an unknown state with 404 and no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/babysitters/zz')
    expect([res.status, statements]).toEqual([404, []])
  })
})

describe('national pages', () => {
  it('sum up the service and link its top cities and states', async () => {
    const [totals] = await all<{ providers: number; cities: number }>(
      `SELECT SUM(providers) AS providers, COUNT(*) AS cities FROM service_city_stats WHERE service = 'nannies'`,
    )
    const top = await all<{ slug: string }>(
      `SELECT c.slug FROM service_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'nannies' AND s.providers >= 5 ORDER BY s.providers DESC LIMIT 12`,
    )
    const { res, html } = await page('/nannies')
    expect(res.status).toBe(200)
    expect(html).toContain('<h1>Nannies near you</h1>')
    expect(textOf(html)).toContain(
      `${totals?.providers.toLocaleString('en-US')} nannies in ${totals?.cities} cities`,
    )
    const links = [...html.matchAll(/href="(\/nannies\/[a-z-]+-[a-z]{2})"/g)].map((m) => m[1])
    expect(links).toEqual(top.map((c) => `/nannies/${c.slug}`))
    expect(html).toContain('<a href="/nannies/ga">Georgia</a>')
    expect(html).not.toContain('<a href="/nannies/wy">')
    expect(html).toContain('<a href="/senior-care">Senior care</a>')
  })

  it('list the states by name, as people look for theirs, not by code', async () => {
    const { html } = await page('/babysitters')
    const states = [...html.matchAll(/<a href="\/babysitters\/([a-z]{2})">([^<]+)<\/a>/g)]
    const names = states.map((m) => m[2] ?? '')
    expect(names.length).toBeGreaterThan(5)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-US')))
    // Ordered by code, these states would read in another order.
    const codes = states.map((m) => m[1] ?? '')
    expect(codes).not.toEqual([...codes].sort())
  })
})
