import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { ACTIVITY_KEYWORDS } from '../../src/catalog/activities'
import {
  canonicalOf,
  statementsOnceWarm,
  jsonLd,
  ORIGIN,
  page,
  robotsOf,
  textOf,
} from '../support/fetch-page'

interface Row {
  id: number
  name: string
  organizer: string
  subcategory: string | null
  participation: string
  ages: number
  days: number
  start_date: string | null
  end_date: string | null
  is_camp: number
  price: number
  price_unit: string
  venue: string | null
}

const today = () => new Date().toISOString().slice(0, 10)
const ids = (html: string) =>
  [...html.matchAll(/<li class="card" id="activity-(\d+)">/g)].map((m) => Number(m[1]))

async function current(column: 'category' | 'subcategory', keyword: string): Promise<Row[]> {
  return (
    await env.CONTROL.prepare(
      `SELECT * FROM activities WHERE ${column} = ? AND (end_date IS NULL OR end_date >= ?) ORDER BY start_date, id`,
    )
      .bind(keyword, today())
      .all<Row>()
  ).results
}

describe('camps and activities', () => {
  it.each(ACTIVITY_KEYWORDS.map((k) => k.slug))(
    '/explore/d/%s answers 200 with what is on',
    async (keyword) => {
      const { res, html } = await page(`/explore/d/${keyword}`)
      expect(res.status).toBe(200)
      expect(ids(html).length).toBeGreaterThan(0)
    },
  )

  it('lists the keyword’s activities that have not ended, in date order', async () => {
    const rows = await current('category', 'sports')
    const ended = await env.CONTROL.prepare(
      "SELECT id FROM activities WHERE category = 'sports' AND end_date < ?",
    )
      .bind(today())
      .raw<[number]>()
    expect(ended.length).toBeGreaterThan(0)
    const { html } = await page('/explore/d/sports')
    expect(ids(html)).toEqual(rows.slice(0, 20).map((r) => r.id))
    expect(textOf(html)).toContain(`${rows.length} camps and classes coming up or running now`)
    expect(canonicalOf(html)).toBe(`${ORIGIN}/explore/d/sports`)
    const pages = Math.ceil(rows.length / 20)
    const shown = new Set<number>()
    for (let p = 1; p <= pages; p++) {
      for (const id of ids((await page(`/explore/d/sports${p > 1 ? `?page=${p}` : ''}`)).html))
        shown.add(id)
    }
    for (const [id] of ended) expect(shown.has(id)).toBe(false)
  })

  it.each([
    ['onlyCampActivities=true', (r: Row) => r.is_camp === 1],
    ['activityParticipationType=online', (r: Row) => r.participation === 'ONLINE'],
    ['childCareAgeGroups=12-plus-yrs', (r: Row) => (r.ages & 16) !== 0],
    ['activityDaysOfWeek=saturday,sunday', (r: Row) => (r.days & 0b1100000) !== 0],
    [
      'subcategories=robotics,coding',
      (r: Row) => r.subcategory === 'robotics' || r.subcategory === 'coding',
    ],
  ])('narrow ?%s to matching activities, noindex', async (query, matches) => {
    const rows = (await current('category', 'stem')).filter(matches)
    const { res, html } = await page(`/explore/d/stem?${query}`)
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(canonicalOf(html)).toBe(`${ORIGIN}/explore/d/stem`)
    expect(ids(html)).toEqual(rows.slice(0, 20).map((r) => r.id))
  })

  it('narrow by a date to activities running that day, ongoing classes included', async () => {
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const rows = (await current('category', 'sports')).filter(
      (r) => r.start_date === null || (r.start_date <= day && (r.end_date ?? '') >= day),
    )
    const { html } = await page(`/explore/d/sports?activityDates=${day}`)
    expect(ids(html)).toEqual(rows.slice(0, 20).map((r) => r.id))
  })

  it.each([
    'activityDates=2026-02-30',
    'activityDates=yesterday',
    'activityDates=2026-12-31..2026-01-01',
    'categories=juggling',
    'subcategories=knitting',
    'childCareAgeGroups=toddlers',
    'activityParticipationType=hybrid',
    'onlyCampActivities=maybe',
    'activityDaysOfWeek=funday',
  ])('answer ?%s with 400', async (query) => {
    expect((await page(`/explore/d/stem?${query}`)).res.status).toBe(400)
  })

  it('answer subcategories of another category with a 400 page that says why, stored nowhere', async () => {
    for (const path of [
      '/explore/d/stem?subcategories=soccer',
      '/explore/d/robotics?subcategories=ballet',
    ]) {
      const { res, html } = await page(path)
      expect([path, res.status, res.headers.get('x-cache')]).toEqual([path, 400, 'BYPASS'])
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const text = textOf(html).replace(/&quot;/g, '"')
      expect(text).toContain('Bad Request')
      expect(text).toMatch(/"(soccer|ballet)" is not a valid value for "subcategories"/)
    }
    // The category's own subcategories, on its page or a sibling's, still narrow the listing.
    expect((await page('/explore/d/stem?subcategories=coding')).res.status).toBe(200)
    expect((await page('/explore/d/robotics?subcategories=coding')).res.status).toBe(200)
  })

  it('state every dated activity on the page as an Event matching what it shows', async () => {
    const { html } = await page('/explore/d/stem?onlyCampActivities=true')
    const text = textOf(html)
    const events = jsonLd(html).filter((d) => d['@type'] === 'Event')
    const rows = (await current('category', 'stem')).filter((r) => r.is_camp === 1).slice(0, 20)
    expect(events.length).toBe(rows.length)
    for (const [i, event] of events.entries()) {
      const row = rows[i]
      if (!row) throw new Error('missing row')
      expect(event).toMatchObject({
        name: row.name,
        startDate: row.start_date,
        endDate: row.end_date,
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        eventStatus: 'https://schema.org/EventScheduled',
        location: { '@type': 'Place', name: row.venue },
        organizer: { '@type': 'Organization', name: row.organizer },
        offers: {
          '@type': 'Offer',
          priceCurrency: 'USD',
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price: String(row.price),
            priceCurrency: 'USD',
            unitText: 'week',
          },
        },
      })
      // A price per week is no ticket price: the offer states none of its own.
      expect(event.offers).not.toHaveProperty('price')
      for (const value of [row.name, row.organizer, `$${row.price} per week`])
        expect(text).toContain(value)
    }
  })

  it('state every price per session, week or month with its unit, never as a ticket price', async () => {
    const units = new Set<string>()
    for (const path of [
      '/explore/d/stem',
      '/explore/d/art',
      '/explore/d/art?onlyCampActivities=true',
    ]) {
      const { html } = await page(path)
      const text = textOf(html)
      for (const event of jsonLd(html).filter((d) => d['@type'] === 'Event')) {
        const offers = event.offers as Record<string, unknown>
        const spec = offers.priceSpecification as { price: string; unitText: string }
        expect(offers).not.toHaveProperty('price')
        expect(text).toContain(`$${spec.price} per ${spec.unitText}`)
        units.add(spec.unitText)
      }
    }
    expect([...units].sort()).toEqual(['month', 'session', 'week'])
  })

  it('answer an unknown keyword with 404 and no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/explore/d/knitting')
    expect([res.status, statements]).toEqual([404, []])
  })
})
