import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { JOB_SERVICES } from '../../src/catalog/jobs'
import { SERVICES } from '../../src/catalog/services'
import { aProvider, cityId, purge, refreshCatalogStats, shardOf } from '../support/builders'
import { anIsolate, statementsOnceWarm, page, robotsOf, textOf } from '../support/fetch-page'

describe('city hubs (ALL_SERVICES_CITY)', () => {
  it('list every service and job family of the city with counts, linking only to pages worth a visit', async () => {
    const city = await env.CONTROL.prepare(
      "SELECT id FROM cities WHERE slug = 'atlanta-ga'",
    ).first<{
      id: number
    }>()
    const services = (
      await env.CONTROL.prepare(
        'SELECT service, providers FROM service_city_stats WHERE city_id = ?',
      )
        .bind(city?.id)
        .all<{ service: string; providers: number }>()
    ).results
    const jobs = (
      await env.CONTROL.prepare('SELECT service, jobs FROM job_city_stats WHERE city_id = ?')
        .bind(city?.id)
        .all<{ service: string; jobs: number }>()
    ).results
    const { res, html } = await page('/local/atlanta-ga')
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('index,follow')
    for (const s of SERVICES) {
      const n = services.find((r) => r.service === s.slug)?.providers ?? 0
      const link = `<a href="/${s.slug}/atlanta-ga">${s.title}</a><span class="count"> (${n})</span>`
      expect(html.includes(link)).toBe(n >= 5)
    }
    for (const j of JOB_SERVICES) {
      const n = jobs.find((r) => r.service === j.slug)?.jobs ?? 0
      expect(html.includes(`href="/${j.slug}/atlanta-ga"`)).toBe(n >= 5)
    }
  })

  it('count each caregiver once, however many services they offer', async () => {
    const counts = await shardOf('atlanta-ga')
      .prepare(
        `SELECT COUNT(*) AS listings, COUNT(DISTINCT provider_id) AS people
         FROM provider_services WHERE city_id = ?`,
      )
      .bind(await cityId('atlanta-ga'))
      .first<{ listings: number; people: number }>()
    const people = counts?.people ?? 0
    // Some providers offer more than one service: a sum of listings would say more.
    expect(counts?.listings).toBeGreaterThan(people)
    const { html } = await page('/local/atlanta-ga')
    expect(textOf(html)).toContain(`${people.toLocaleString('en-US')} caregivers and`)
    expect(html).toMatch(
      new RegExp(
        `<meta name="description" content="[^"]*: ${people.toLocaleString('en-US')} caregivers`,
      ),
    )
  })

  it('count only the caregivers of services that have pages for the visitor', async () => {
    const shown = await shardOf('atlanta-ga')
      .prepare(
        `SELECT COUNT(DISTINCT provider_id) AS n FROM provider_services
        WHERE city_id = ? AND service != 'day-care'`,
      )
      .bind(await cityId('atlanta-ga'))
      .first<{ n: number }>()
    await env.FLAGS.put(
      'flags',
      JSON.stringify({ flags: { daycareDirectoryFlow: { state: 'DISABLED', default: false } } }),
    )
    try {
      // An isolate that reads the store as it now is.
      const { html } = await anIsolate().page('/local/atlanta-ga')
      expect(html).not.toContain('href="/day-care/atlanta-ga"')
      expect(textOf(html)).toContain(`${(shown?.n ?? 0).toLocaleString('en-US')} caregivers and`)
    } finally {
      await env.FLAGS.delete('flags')
    }
  })

  it('link nearby cities’ hubs once they have a page worth a visit', async () => {
    expect((await page('/local/atlanta-ga')).html).not.toContain('href="/local/sandy-springs-ga"')
    const sandySprings = await cityId('sandy-springs-ga')
    for (let i = 0; i < 5; i++) await aProvider({ cityId: sandySprings, service: 'tutors' })
    await refreshCatalogStats()
    await purge({ tags: ['city:atlanta-ga'] })
    expect((await page('/local/atlanta-ga')).html).toContain(
      '<a href="/local/sandy-springs-ga">Sandy Springs, GA</a>',
    )
  })

  it('keep a city with nothing worth a visit out of the index', async () => {
    const { res, html } = await page('/local/gainesville-ga')
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
  })

  it('answer an unknown city with 404 and no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/local/atlantis-ga')
    expect([res.status, statements]).toEqual([404, []])
  })
})
