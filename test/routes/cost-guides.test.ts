import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { SEED_CITIES } from '../../src/catalog/cities'
import {
  COST_GUIDE_SERVICES,
  EXPERIENCE_BANDS,
  MIN_COST_SAMPLE,
} from '../../src/catalog/cost-guides'
import {
  canonicalOf,
  statementsOnceWarm,
  ORIGIN,
  page,
  robotsOf,
  settled,
  textOf,
} from '../support/fetch-page'
import { shardOf } from '../support/builders'
import { fromShards } from '../support/databases'

interface Figures {
  avg: number
  lo: number
  hi: number
  n: number
}

async function figures(service: string, citySlug?: string): Promise<Figures> {
  // Every shard's part (a city's is on one), combined as one database's figures would be.
  const parts = await fromShards<{ sum: number | null; lo: number; hi: number; n: number }>(
    `SELECT SUM((ps.rate_min + ps.rate_max) / 2.0) AS sum, MIN(ps.rate_min) AS lo, MAX(ps.rate_max) AS hi, COUNT(*) AS n
       FROM provider_services ps JOIN cities c ON c.id = ps.city_id
      WHERE ps.service = ? AND (? IS NULL OR c.slug = ?)`,
    service,
    citySlug ?? null,
    citySlug ?? null,
  )
  const held = parts.filter((p) => p.n > 0)
  if (!held.length) throw new Error('no figures')
  const n = held.reduce((total, p) => total + p.n, 0)
  return {
    avg: held.reduce((total, p) => total + (p.sum ?? 0), 0) / n,
    lo: Math.min(...held.map((p) => p.lo)),
    hi: Math.max(...held.map((p) => p.hi)),
    n,
  }
}

async function byExperience(service: string, citySlug: string) {
  const { results } = await shardOf(citySlug)
    .prepare(
      `SELECT years_experience AS years, (rate_min + rate_max) / 2.0 AS mid
       FROM provider_services ps JOIN cities c ON c.id = ps.city_id WHERE ps.service = ? AND c.slug = ?`,
    )
    .bind(service, citySlug)
    .all<{ years: number; mid: number }>()
  return EXPERIENCE_BANDS.map((band) => {
    const mids = results.filter((r) => r.years >= band.min && r.years <= band.max).map((r) => r.mid)
    return mids.length ? mids.reduce((a, b) => a + b, 0) / mids.length : null
  })
}

const money = (n: number) => `$${n.toFixed(2)}/hr`

describe('cost guides', () => {
  it.each(COST_GUIDE_SERVICES.flatMap((s) => SEED_CITIES.map((c) => [s.slug, c] as const)))(
    '/cost/%s/%s states figures recomputed from the rates in D1, with an SVG chart',
    async (service, city) => {
      const [local, national] = await Promise.all([figures(service, city), figures(service)])
      const { res, html } = await page(`/cost/${service}/${city}`)
      expect(res.status).toBe(200)
      const text = textOf(html)
      expect(text).toContain(`Average rate ${money(local.avg)}`)
      expect(text).toContain(`Range $${local.lo}–$${local.hi}/hr`)
      expect(text).toContain(`National average ${money(national.avg)}`)
      const percent = Math.round((Math.abs(local.avg - national.avg) / national.avg) * 100)
      const direction = local.avg > national.avg ? 'Higher' : 'Lower'
      expect(text).toContain(percent === 0 ? 'About the same' : `${direction} by ${percent}%`)
      expect(text).toMatch(new RegExp(`Based on the rates of ${local.n} [a-z ]+ with profiles in`))
      expect(html).toMatch(
        /<svg viewBox="0 0 360 \d+" role="img" aria-labelledby="rates-title rates-desc"/,
      )
      expect(html).toContain('<title id="rates-title">')
      expect(html).toContain('<table class="sr-only"><caption>')
      expect(robotsOf(html)).toBe(local.n >= MIN_COST_SAMPLE ? 'index,follow' : 'noindex,follow')
    },
  )

  it('give rates by years of experience, from the providers’ own rates', async () => {
    const bands = await byExperience('nannies', 'seattle-wa')
    const text = textOf((await page('/cost/nannies/seattle-wa')).html)
    EXPERIENCE_BANDS.forEach((band, i) => {
      const rate = bands[i]
      expect(text).toContain(
        `${band.label} ${rate === null || rate === undefined ? '–' : money(rate)}`,
      )
    })
  })

  it('say more experienced caregivers charge more only where every band with rates does', async () => {
    const guides = []
    for (const service of COST_GUIDE_SERVICES)
      for (const city of SEED_CITIES) {
        const cents = (await byExperience(service.slug, city)).flatMap((r) =>
          r === null ? [] : [Math.round(r * 100)],
        )
        const rising = cents.length > 1 && cents.every((c, i) => i === 0 || c > (cents[i - 1] ?? 0))
        guides.push({ service, city, rising })
      }
    // Every guide where rates do not rise, and as many where they do.
    const other = guides.filter((g) => !g.rising)
    const rising = guides.filter((g) => g.rising).slice(0, Math.max(other.length, 5))
    expect(other.length).toBeGreaterThan(0)
    for (const { service, city, rising: expected } of [...other, ...rising]) {
      const { body } = await settled(`/cost/${service.slug}/${city}`)
      const claim = textOf(body).includes(`more experienced ${service.nouns} charge more`)
      expect({ path: `/cost/${service.slug}/${city}`, claim }).toEqual({
        path: `/cost/${service.slug}/${city}`,
        claim: expected,
      })
    }
  }, 30_000)

  it('say so honestly, and stay out of the index, when the sample is small', async () => {
    const thin = await env.CONTROL.prepare(
      `SELECT c.slug, s.providers FROM service_city_stats s JOIN cities c ON c.id = s.city_id
        WHERE s.service = 'tutors' AND s.providers < ? ORDER BY c.slug LIMIT 1`,
    )
      .bind(MIN_COST_SAMPLE)
      .first<{ slug: string; providers: number }>()
    if (!thin) throw new Error('no thin tutors city')
    const { res, html } = await page(`/cost/tutors/${thin.slug}`)
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(textOf(html)).toContain('so these figures are a rough guide')
  })

  it('cover the whole country on the national guide and link its city guides', async () => {
    const national = await figures('housekeeping')
    const { res, html } = await page('/cost/housekeeping')
    expect(res.status).toBe(200)
    expect(canonicalOf(html)).toBe(`${ORIGIN}/cost/housekeeping`)
    expect(textOf(html)).toContain(`Average rate ${money(national.avg)}`)
    expect(html).toContain('href="/cost/housekeeping/atlanta-ga"')
  })

  it('link the city directory and nearby guides, and answer 404 where there is nothing to say', async () => {
    const { html } = await page('/cost/babysitters/atlanta-ga')
    expect(html).toContain('<a href="/babysitters/atlanta-ga">See babysitters in Atlanta</a>')
    expect((await page('/cost/special-needs/atlanta-ga')).res.status).toBe(404)
    const unknown = await statementsOnceWarm('/cost/babysitters/atlantis-ga')
    expect([unknown.res.status, unknown.statements]).toEqual([404, []])
  })

  it('are linked from the directory’s rate summary', async () => {
    const { html } = await page('/babysitters/atlanta-ga')
    expect(html).toContain('href="/cost/babysitters/atlanta-ga"')
  })
})
