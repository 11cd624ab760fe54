import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { milesBetween } from '../../src/lib/geo'
import { page } from '../support/fetch-page'

interface Row {
  slug: string
  lat: number
  lng: number
  population: number
  providers: number
}

async function citiesWith(service: string, where = '1 = 1', ...params: string[]): Promise<Row[]> {
  const { results } = await env.CONTROL.prepare(
    `SELECT c.slug, c.lat, c.lng, c.population, s.providers
       FROM service_city_stats s JOIN cities c ON c.id = s.city_id
      WHERE s.service = ? AND ${where}`,
  )
    .bind(service, ...params)
    .all<Row>()
  return results
}

/** The hrefs of the links in the module headed `title`, in order. */
function moduleLinks(html: string, title: string): string[] {
  const at = html.indexOf(`>${title}</h2>`)
  if (at < 0) return []
  const section = html.slice(at, html.indexOf('</section>', at))
  return [...section.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] ?? '')
}

describe('nearby places', () => {
  it('a directory far from other cities still links the nearest that have the service, nearest first', async () => {
    const all = await citiesWith('babysitters', 's.providers >= 5')
    const denver = all.find((c) => c.slug === 'denver-co')
    if (!denver) throw new Error('the test catalog has babysitters in Denver')
    const expected = all
      .filter((c) => c.slug !== 'denver-co')
      .map((c) => ({ slug: c.slug, miles: milesBetween(denver, c) }))
      .filter((c) => c.miles <= 1000)
      .sort((a, b) => a.miles - b.miles)
      .slice(0, 8)
      .map((c) => `/babysitters/${c.slug}`)
    // Nothing within 60 miles: the wider ring answers.
    expect(expected.length).toBeGreaterThan(0)
    const { html } = await page('/babysitters/denver-co')
    expect(moduleLinks(html, 'Babysitters in nearby cities')).toEqual(expected)
  })

  it('a directory near others links those within 60 miles, not farther ones', async () => {
    const { html } = await page('/babysitters/marietta-ga')
    const links = moduleLinks(html, 'Babysitters in nearby cities')
    expect(links).toContain('/babysitters/atlanta-ga')
    expect(links).not.toContain('/babysitters/charlotte-nc')
  })

  it('a state page lists its cities largest first', async () => {
    // Texas has four of SEED_CITIES.
    const cities = (await citiesWith('babysitters', "s.state_code = 'TX' AND s.providers >= 5"))
      .sort((a, b) => b.population - a.population)
      .map((c) => `/babysitters/${c.slug}`)
    expect(cities.length).toBeGreaterThan(2)
    const { html } = await page('/babysitters/tx')
    expect(moduleLinks(html, 'Babysitters by city')).toEqual(cities)
  })
})
