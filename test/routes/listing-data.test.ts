import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { EMBEDDED_STATE_BUDGET } from '../../src/views/listing/island-props'
import type { ListingState } from '../../src/views/listing/listing-state'
import { aProvider, purge, shardOf } from '../support/builders'
import { cardLinks, statementsOnceWarm, fetchPage, page } from '../support/fetch-page'

const DATA = { 'x-data-request': '1' }

async function data(path: string, headers: Record<string, string> = DATA) {
  const res = await fetchPage(`/_data${path}`, { headers })
  return { res, json: await res.json<Record<string, unknown>>() }
}

/** The state a listing page carries for its islands. */
function embeddedState(html: string): ListingState {
  const json = /<script type="application\/json" id="listing-state">(.*?)<\/script>/.exec(html)?.[1]
  return JSON.parse(json ?? 'null') as ListingState
}

describe('listing islands', () => {
  it.each(['/babysitters/atlanta-ga', '/babysitting-jobs/atlanta-ga', '/explore/d/robotics'])(
    '%s renders its islands on their own roots, with the state and the script that hydrate them',
    async (path) => {
      const { html } = await page(path)
      const roots = [...html.matchAll(/<div data-island="([a-z]+)" class="island">/g)].map(
        (m) => m[1],
      )
      expect(roots).toEqual(
        path.includes('jobs')
          ? ['heading', 'filters', 'results']
          : ['heading', 'intent', 'filters', 'results'],
      )
      // The browser script; React, which it fetches on the visitor's first interaction, is not
      // linked, so nothing competes with the page's load.
      expect(html).toMatch(/<script type="module" src="\/assets\/client\.[0-9a-f]{10}\.js"/)
      expect(html).not.toMatch(/modulepreload|react\.[0-9a-f]{10}\.js/)
      // The cards are sent once, as markup: the state beside them carries none.
      expect(html.match(/<li class="card"/g)?.length).toBeGreaterThan(0)
      expect(embeddedState(html).results.cards).toEqual([])
    },
  )

  it.each([
    '/babysitters/atlanta-ga',
    '/day-care/atlanta-ga',
    '/babysitting-jobs/atlanta-ga?schedule=part-time',
    '/explore/d/robotics',
    '/senior-care/atlanta-ga',
  ])('%s embeds a state within the budget', async (path) => {
    const { html } = await page(path)
    const json = /<script type="application\/json" id="listing-state">(.*?)<\/script>/.exec(
      html,
    )?.[1]
    // A page without the state would pass any budget: it must carry one, for this path.
    if (json === undefined) throw new Error(`${path} embeds no listing state`)
    expect((JSON.parse(json) as ListingState).path).toBe(path.split('?')[0])
    expect(new TextEncoder().encode(json).byteLength).toBeLessThanOrEqual(EMBEDDED_STATE_BUDGET)
  })

  it.each(['/', '/babysitters', '/babysitters/ga', '/local/atlanta-ga'])(
    '%s has no listing island, and loads the script only for its search form',
    async (path) => {
      const { html } = await page(path)
      expect(html).not.toContain('data-island')
      expect(html).toContain('data-search=""')
      expect(html).toMatch(/<script type="module" src="[^"]+client\.[0-9a-f]+\.js"/)
    },
  )

  it.each([
    '/cost/babysitters/atlanta-ga',
    '/post-surgery-care',
    '/us-subscription/segment/nonmember/babysitters',
    '/babysitters/atlantis-zz',
  ])('%s has no island and loads no script', async (path) => {
    const { res, html } = await page(path)
    expect(res.status).toBe(path.includes('atlantis') ? 404 : 200)
    expect(html).not.toContain('data-island')
    expect(html).not.toMatch(/<script[^>]* src=/)
    expect(html).not.toContain('type="module"')
    expect(html).not.toContain('modulepreload')
  })

  it('leaves profiles and job details without script', async () => {
    const [profile = ''] = cardLinks((await page('/babysitters/atlanta-ga')).html)
    const job = /href="(\/job\/[^"]+)"/.exec((await page('/babysitting-jobs/atlanta-ga')).html)?.[1]
    for (const path of [profile, job ?? '']) {
      const { res, html } = await page(path)
      expect([path, res.status, /<script[^>]* src=/.test(html)]).toEqual([path, 200, false])
    }
  })

  it('carries a state no text can break out of', async () => {
    const city = await env.CONTROL.prepare("SELECT id FROM cities WHERE slug = 'denver-co'").first<{
      id: number
    }>()
    const p = await aProvider({ cityId: city?.id ?? 0, service: 'tutors', rankScore: 99 })
    const hostile = '</script><script>alert(1)</script><!-- \u2028 & "quoted"'
    await shardOf('denver-co')
      .prepare('UPDATE providers SET headline = ? WHERE id = ?')
      .bind(hostile, p.id)
      .run()
    await purge({ tags: ['city:denver-co'] })
    const { html } = await page('/tutors/denver-co')
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    const { json } = await data('/tutors/denver-co')
    const card = (json as unknown as ListingState).results.cards.find((c) => c.key === `p${p.id}`)
    expect(card?.lines[0]).toEqual({ kind: 'text', className: null, text: hostile })
  })
})

describe('/_data', () => {
  it('answers a listing state as JSON: the state the page carries, with its cards', async () => {
    const path = '/babysitters/atlanta-ga?sort=newest&page=2'
    const { html } = await page(path)
    const { res, json } = await data(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('x-robots-tag')).toBe('noindex')
    const state = json as unknown as ListingState
    expect({ ...state, results: { ...state.results, cards: [] } }).toEqual(embeddedState(html))
    expect(state.results.cards.map((c) => c.href)).toEqual(cardLinks(html))
    expect(json).toMatchObject({ heading: 'Babysitters in Atlanta, GA (page 2)' })
  })

  it('states every listing kind', async () => {
    for (const path of ['/babysitting-jobs/atlanta-ga?schedule=part-time', '/explore/d/art']) {
      const { res, json } = await data(path)
      expect(res.status).toBe(200)
      expect((json as unknown as ListingState).path).toBe(path.split('?')[0])
    }
  })

  it('is cached apart from the page, and purged with it', async () => {
    const path = '/nannies/denver-co?distance=10'
    expect((await data(path)).res.headers.get('x-cache')).toBe('MISS')
    expect((await data(path)).res.headers.get('x-cache')).toBe('HIT')
    expect((await fetchPage(path)).headers.get('content-type')).toMatch(/^text\/html/)
    await purge({ urls: ['/nannies/denver-co'] })
    expect((await data(path)).res.headers.get('x-cache')).toBe('MISS')
  })

  it('answers a missing page with 404 {"notFound": true}, through the gate when it can tell', async () => {
    const unknown = await statementsOnceWarm('/_data/babysitters/atlantis-zz', { headers: DATA })
    expect([unknown.res.status, JSON.parse(unknown.body), unknown.statements]).toEqual([
      404,
      { notFound: true },
      [],
    ])
    for (const path of ['/babysitters/atlanta-ga?page=50', '/p/maria-g-1', '/no/such/page']) {
      const { res, json } = await data(path)
      expect([path, res.status, json]).toEqual([path, 404, { notFound: true }])
    }
  })

  it('answers JSON only at the prefix itself and at any other spelling of a data path', async () => {
    for (const path of [
      '/_data',
      '/_data?x=1',
      '/_data/',
      '/_data//babysitters/atlanta-ga',
      '/_data/babysitters/atlanta-ga/',
      '/_data/Babysitters/atlanta-ga',
    ]) {
      const res = await fetchPage(path, { headers: DATA })
      const type = res.headers.get('content-type')
      expect([path, res.status, type, await res.json()]).toEqual([
        path,
        404,
        'application/json',
        { notFound: true },
      ])
    }
    const plain = await fetchPage('/_data')
    expect(plain.headers.get('content-type')).toBe('application/json')
    expect(plain.status).toBeGreaterThanOrEqual(400)
  })

  it('answers JSON only: a malformed filter or a missing header is a 400 in JSON', async () => {
    const bad = await data('/babysitters/atlanta-ga?distance=7')
    expect(bad.res.status).toBe(400)
    expect(bad.json.error).toMatch(/distance/)
    const plain = await data('/babysitters/atlanta-ga', {})
    expect(plain.res.status).toBe(400)
    expect(plain.res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(plain.json.error).toBe('data requests carry x-data-request: 1')
  })

  it('saves a buying intent from the intent island and names the next step', async () => {
    const flow = '/us-subscription/segment/nonmember'
    const saved = await data(`${flow}/babysitters?intent=rightNow`)
    expect([saved.res.status, saved.json]).toEqual([200, { next: '/babysitters' }])
    expect(saved.res.headers.get('cache-control')).toBe('private, no-store')
    expect(saved.res.headers.get('set-cookie')).toMatch(/csc=s%3Dbabysitters%26i%3DrightNow/)
    const adult = await data(`${flow}/senior-care?intent=withInWeek`)
    expect(adult.json).toEqual({ next: `${flow}/in-facility/who-needs-care` })
    expect((await data(`${flow}/babysitters`)).res.status).toBe(400)
    expect((await data(`${flow}/babysitters?intent=soon`)).res.status).toBe(400)
  })
})
