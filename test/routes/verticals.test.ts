import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { LARGE_CITY_POPULATION } from '../../src/catalog/cities'
import { SERVICES } from '../../src/catalog/services'
import {
  canonicalOf,
  cardLinks,
  statementsOnceWarm,
  ORIGIN,
  page,
  robotsOf,
  settled,
  textOf,
} from '../support/fetch-page'
import { shardOf } from '../support/builders'
import { fromShards } from '../support/databases'

/** `sql`'s rows on the shard of the city `slug`. */
async function fromShard<T>(slug: string, sql: string, ...params: (string | number)[]) {
  return (
    await shardOf(slug)
      .prepare(sql)
      .bind(...params)
      .all<T>()
  ).results
}

async function all<T>(sql: string, ...params: (string | number)[]): Promise<T[]> {
  return (
    await env.CONTROL.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results
}

/** The `name` attributes of a page's form fields. */
function fieldNames(html: string): Set<string> {
  return new Set(
    [...html.matchAll(/<(?:input|select)[^>]* name="([^"]+)"/g)].map((m) => m[1] ?? ''),
  )
}

/** The links of a page's link module titled `title`. */
function moduleLinks(html: string, title: string): string[] {
  const id = `links-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  const start = html.indexOf(`<h2 id="${id}">`)
  if (start < 0) return []
  const section = html.slice(start, html.indexOf('</section>', start))
  return [...section.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? '')
}

describe('au pairs and errand runners', () => {
  it.each(['au-pairs', 'errands'])(
    '/%s has directories, state and national pages behind the same rules',
    async (slug) => {
      const directory = await page(`/${slug}/atlanta-ga`)
      expect(directory.res.status).toBe(200)
      expect(robotsOf(directory.html)).toBe('index,follow')
      expect(canonicalOf(directory.html)).toBe(`${ORIGIN}/${slug}/atlanta-ga`)
      expect(cardLinks(directory.html).length).toBeGreaterThan(0)
      for (const path of [`/${slug}/ga`, `/${slug}`]) {
        const { res, html } = await page(path)
        expect(res.status).toBe(200)
        expect(robotsOf(html)).toBe('index,follow')
        expect(canonicalOf(html)).toBe(`${ORIGIN}${path}`)
      }
      // The gate knows cities, whatever the service: an unknown one is a 404 with no read.
      const unknown = await statementsOnceWarm(`/${slug}/nowhere-zz`)
      expect([unknown.res.status, unknown.statements]).toEqual([404, []])
    },
  )

  it('show au pairs’ weekly stipends and filter them by experience, availability and ages, not by an hourly rate', async () => {
    const rates = await fromShards<{ pay_unit: string }>(
      "SELECT DISTINCT pay_unit FROM provider_services WHERE service = 'au-pairs'",
    )
    expect([...new Set(rates.map((r) => r.pay_unit))]).toEqual(['wk'])
    const { html } = await page('/au-pairs/atlanta-ga')
    expect(textOf(html)).toMatch(/\$\d+–\$\d+\/wk/)
    const fields = fieldNames(html)
    for (const name of ['distance', 'experience', 'availability', 'ages'])
      expect(fields.has(name)).toBe(true)
    expect(fields.has('rate')).toBe(false)
  })

  it('speak English and their own language, as au pairs from abroad do', async () => {
    const rows = await fromShards<{ languages: string }>(
      `SELECT p.languages FROM providers p JOIN provider_services ps ON ps.provider_id = p.id
        WHERE ps.service = 'au-pairs'`,
    )
    expect(rows.length).toBeGreaterThan(0)
    const bilingual = rows.filter((r) => r.languages.split(',').length > 1)
    expect(bilingual.length / rows.length).toBeGreaterThan(0.8)
  })

  it('filter errand runners by the errands they run', async () => {
    const { id } = (await env.CONTROL.prepare(
      "SELECT id FROM cities WHERE slug = 'atlanta-ga'",
    ).first<{
      id: number
    }>()) ?? { id: 0 }
    // Grocery shopping is the first errand: bit 1.
    const expected = await fromShard<{ provider_id: number }>(
      'atlanta-ga',
      `SELECT provider_id FROM provider_services
        WHERE service = 'errands' AND city_id = ? AND (options & 1) = 1`,
      id,
    )
    const { res, html } = await page('/errands/atlanta-ga?services=grocery-shopping')
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    const shown = cardLinks(html).map((href) => Number(/-(\d+)$/.exec(href)?.[1]))
    expect(shown.length).toBe(Math.min(expected.length, 20))
    for (const id of shown) expect(expected.map((r) => r.provider_id)).toContain(id)
  })

  it('link errands to the care gigs listing, where errands are posted, and au pairs to no jobs', async () => {
    const gigs = await all<{ jobs: number }>(
      `SELECT s.jobs FROM job_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'care-gigs' AND c.slug = 'atlanta-ga'`,
    )
    const errands = (await settled('/errands/atlanta-ga')).body
    expect(errands.includes('href="/care-gigs/atlanta-ga"')).toBe((gigs[0]?.jobs ?? 0) >= 5)
    const auPairs = (await settled('/au-pairs/atlanta-ga')).body
    expect(auPairs).not.toMatch(/href="\/[a-z-]+-jobs\/atlanta-ga"|href="\/care-gigs\//)
  })

  it('are in the sitemaps and in the link modules of other pages', async () => {
    const directories = (await settled('/sitemaps/directories-1.xml')).body
    const pages = (await settled('/sitemaps/pages.xml')).body
    for (const slug of ['au-pairs', 'errands']) {
      expect(directories).toContain(`<loc>${ORIGIN}/${slug}/atlanta-ga</loc>`)
      expect(pages).toContain(`<loc>${ORIGIN}/${slug}</loc>`)
      expect(pages).toContain(`<loc>${ORIGIN}/${slug}/ga</loc>`)
    }
    const hub = (await page('/local/atlanta-ga')).html
    expect(hub).toContain('href="/au-pairs/atlanta-ga"')
    expect(hub).toContain('href="/errands/atlanta-ga"')
    const nannies = (await settled('/nannies/atlanta-ga')).body
    expect(moduleLinks(nannies, 'More care in Atlanta, GA')).toContain('/au-pairs/atlanta-ga')
  })
})

describe('the home page', () => {
  it('links every service’s national page, the largest cities, cost guides and camps; indexable', async () => {
    const { res, html } = await page('/')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-seo-gate')).toBe('index')
    expect(robotsOf(html)).toBe('index,follow')
    expect(canonicalOf(html)).toBe(`${ORIGIN}/`)
    expect(html.match(/<h1>/g)?.length).toBe(1)
    const services = SERVICES.map((s) => `/${s.slug}`)
    expect(moduleLinks(html, 'Care by service')).toEqual(services)
    const largest = await all<{ slug: string }>(
      `SELECT slug FROM cities WHERE population >= ? ORDER BY population DESC LIMIT 24`,
      LARGE_CITY_POPULATION,
    )
    expect(largest.length).toBeGreaterThan(5)
    expect(moduleLinks(html, 'Care in the largest cities')).toEqual(
      largest.map((c) => `/local/${c.slug}`),
    )
    expect(moduleLinks(html, 'What care costs')).toContain('/cost/babysitters')
    expect(moduleLinks(html, 'Camps and activities for kids')).toContain('/explore/d/music')
    const sitemap = (await settled('/sitemaps/pages.xml')).body
    expect(sitemap).toContain(`<loc>${ORIGIN}/</loc>`)
  })

  it('is where the logo leads, on every page', async () => {
    for (const path of ['/', '/babysitters/atlanta-ga', '/local/atlanta-ga', '/explore/d/music'])
      expect((await settled(path)).body).toContain('<a class="logo" href="/">')
  })
})

describe('camps and activities are linked, and link on', () => {
  it('from city hubs and child care directories (RESOURCES), not from other directories', async () => {
    const hub = (await page('/local/atlanta-ga')).html
    expect(moduleLinks(hub, 'Camps and activities for kids')).toContain('/explore/d/music')
    for (const slug of ['babysitters', 'nannies', 'child-care', 'au-pairs']) {
      const { body } = await settled(`/${slug}/atlanta-ga`)
      expect(moduleLinks(body, 'Camps and activities for kids')).toContain('/explore/d/music')
    }
    const { body } = await settled('/housekeeping/atlanta-ga')
    expect(moduleLinks(body, 'Camps and activities for kids')).toEqual([])
  })

  it('from every activity card to a page worth a visit', async () => {
    for (const path of ['/explore/d/music', '/explore/d/piano', '/explore/d/cooking']) {
      const { body } = await settled(path)
      const cards = body.split('<li class="card"').slice(1)
      expect(cards.length).toBeGreaterThan(0)
      for (const card of cards) {
        const links = [...card.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? '')
        expect(links.length, card.slice(0, 200)).toBeGreaterThan(0)
        for (const href of links) {
          const { res, body: linked } = await settled(href)
          expect({ href, status: res.status, robots: robotsOf(linked) }).toEqual({
            href,
            status: 200,
            robots: 'index,follow',
          })
        }
      }
    }
  }, 60_000)
})

describe('text that data speaks', () => {
  it('a state page’s figures add up to the cities it lists', async () => {
    const { html } = await page('/babysitters/ga')
    const text = textOf(html)
    const listed = [
      ...html
        .slice(html.indexOf('<h2 id="links-babysitters-by-city">'))
        .matchAll(/<span class="count"> \(([\d,]+)\)<\/span>/g),
    ]
    const cityLinks = moduleLinks(html, 'Babysitters by city')
    const sum = listed
      .slice(0, cityLinks.length)
      .reduce((n, m) => n + Number(m[1]?.replace(/,/g, '')), 0)
    const cities = `${cityLinks.length} ${cityLinks.length === 1 ? 'city' : 'cities'}`
    expect(text).toContain(`${sum.toLocaleString('en-US')} babysitters in ${cities} across Georgia`)
    const [total] = await all<{ providers: number }>(
      "SELECT SUM(providers) AS providers FROM service_city_stats WHERE service = 'babysitters' AND state_code = 'GA'",
    )
    const others = (total?.providers ?? 0) - sum
    if (others > 0) expect(text).toContain(`and ${others.toLocaleString('en-US')} more in`)
  })

  it('a city hub’s description names the services it links, and only those', async () => {
    const description = (html: string) =>
      /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? ''
    const atlanta = (await page('/local/atlanta-ga')).html
    const linked = SERVICES.filter((s) => atlanta.includes(`href="/${s.slug}/atlanta-ga"`))
    expect(linked.length).toBeGreaterThan(4)
    const named = linked.slice(0, 4).map((s, i) => (i === 0 ? s.title : s.title.toLowerCase()))
    expect(description(atlanta)).toContain(`${named.join(', ')} and more in Atlanta, GA:`)
    // A hub that links no service names none.
    const [bare] = await all<{ slug: string; name: string; stateCode: string }>(
      `SELECT slug, name, state_code AS stateCode FROM cities
        WHERE id NOT IN (SELECT city_id FROM service_city_stats WHERE providers >= 5)
        ORDER BY slug LIMIT 1`,
    )
    if (!bare) throw new Error('no city without a service worth a link')
    expect(description((await page(`/local/${bare.slug}`)).html)).toMatch(
      new RegExp(`^Care in ${bare.name}, ${bare.stateCode}:`),
    )
  })

  it('a city cost guide compares with its state’s cities and the nearest large cities', async () => {
    const { html } = await page('/cost/nannies/atlanta-ga')
    const table = html.slice(html.indexOf('<table'), html.indexOf('</table>'))
    const places = [...table.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1])
    expect(places).toContain('Atlanta, GA')
    expect(places).toContain('National average')
    const georgia = await all<{ name: string }>(
      `SELECT c.name FROM service_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'nannies' AND s.state_code = 'GA' AND s.providers >= 10
          AND c.slug != 'atlanta-ga' ORDER BY s.providers DESC LIMIT 5`,
    )
    for (const { name } of georgia) expect(places).toContain(`${name}, GA`)
    // The chart says what it compares with, and names the state only when it has cities in it.
    expect(textOf(html).includes('other cities in Georgia and the nearest large cities')).toBe(
      georgia.length > 0,
    )
    expect(textOf(html)).toContain('the nearest large cities')
    // Charlotte is the nearest large city outside Georgia; Seattle is far away.
    expect(places).toContain('Charlotte, NC')
    expect(places).not.toContain('Seattle, WA')
  })
})
