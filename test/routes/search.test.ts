import { beforeAll, describe, expect, it } from 'vitest'
import { everyDatabase } from '../support/builders'
import { fetchPage, page, robotsOf, textOf } from '../support/fetch-page'

const FORM = /<form role="search" class="search-form" action="\/search" method="get">/

const search = (params: Record<string, string>) =>
  fetchPage(`/search?${new URLSearchParams(params).toString()}`)

async function expectRedirect(params: Record<string, string>, to: string) {
  const res = await search(params)
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe(to)
  expect(res.headers.get('x-robots-tag')).toBe('noindex')
  expect(res.headers.get('cache-control')).toBe('private, no-store')
}

/** Places the test catalog lacks: two towns of one name, and one with no providers at all. */
beforeAll(async () => {
  for (const db of everyDatabase())
    await db.batch(
      [
        [990001, 'springfield-il', 'Springfield', 'IL', 39.80172, -89.64371, 114394],
        [990002, 'springfield-mo', 'Springfield', 'MO', 37.21533, -93.29824, 169176],
        [990003, 'quietville-ga', 'Quietville', 'GA', 33.7491, -84.3879, 800],
      ].map((row) =>
        db
          .prepare(
            'INSERT INTO cities (id, slug, name, state_code, lat, lng, population) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .bind(...row),
      ),
    )
})

describe('the search form', () => {
  it('is on the home page and every listing, a GET form with the page’s service chosen', async () => {
    const home = await page('/')
    expect(home.html).toMatch(FORM)
    expect(home.html).toMatch(/<select id="[^"]+" name="service">/)
    expect(home.html).toMatch(/required=""[^>]*name="place"/)
    for (const [path, service] of [
      ['/babysitters/atlanta-ga', 'babysitters'],
      ['/nannies/ga', 'nannies'],
      ['/senior-care', 'senior-care'],
    ] as const) {
      const { html } = await page(path)
      expect(html).toMatch(FORM)
      expect(html).toContain(`<option value="${service}" selected="">`)
    }
  })
})

describe('/search', () => {
  it('redirects a ZIP code to the directory of the nearest city with providers', async () => {
    await expectRedirect({ service: 'babysitters', place: '30303' }, '/babysitters/atlanta-ga')
    await expectRedirect({ service: 'nannies', place: '30303-1234' }, '/nannies/atlanta-ga')
  })

  it('redirects a city however it is typed: name, name and state, slug', async () => {
    for (const place of ['Atlanta', 'atlanta, ga', 'ATLANTA GA', 'Atlanta, Georgia', 'atlanta-ga'])
      await expectRedirect({ service: 'babysitters', place }, '/babysitters/atlanta-ga')
    await expectRedirect({ service: 'tutors', place: 'New York, NY' }, '/tutors/new-york-ny')
  })

  it('sends a place without providers to the nearest city that has some', async () => {
    await expectRedirect(
      { service: 'babysitters', place: 'Quietville, GA' },
      '/babysitters/atlanta-ga',
    )
  })

  it('asks which place was meant when a name is shared, and each choice searches that one', async () => {
    const res = await search({ service: 'babysitters', place: 'Springfield' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(html).not.toContain('rel="canonical"')
    expect(textOf(html)).toContain('2 places are called Springfield')
    expect(html).toContain('href="/search?service=babysitters&amp;place=springfield-il"')
    expect(html).toContain('href="/search?service=babysitters&amp;place=springfield-mo"')
    // The choice is exact, so it answers with a redirect to a directory.
    const chosen = await search({ service: 'babysitters', place: 'springfield-mo' })
    expect(chosen.status).toBe(302)
    expect(chosen.headers.get('location')).toMatch(/^\/babysitters\/[a-z-]+$/)
  })

  it('offers close names for a misspelt place', async () => {
    const res = await search({ service: 'babysitters', place: 'Atlnta' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(textOf(html)).toContain('Did you mean one of these?')
    expect(html).toContain('place=atlanta-ga"')
  })

  it('answers a place it cannot find with a 404 page that has the form and the largest cities', async () => {
    for (const place of ['Xqzzyplace', '00000']) {
      const res = await search({ service: 'babysitters', place })
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).toMatch(FORM)
      expect(html).toContain(`value="${place}"`)
      expect(textOf(html)).toContain(`We couldn't find`)
      expect(html).toMatch(/<a href="\/babysitters\/[a-z-]+-[a-z]{2}">/)
      expect(robotsOf(html)).toBe('noindex,follow')
    }
  })

  it('answers missing or unknown input with a 400 page that says what to fix, keeping what was typed', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ place: 'Atlanta' }, 'Choose a kind of care'],
      [{ service: 'llamas', place: 'Atlanta' }, "We don't offer &quot;llamas&quot;"],
      [{ service: 'babysitters', place: '  ' }, 'Type a city'],
      [{ service: 'babysitters', place: '!!!' }, 'Type a city'],
      [{ service: 'babysitters' }, 'Type a city'],
    ]
    for (const [params, says] of cases) {
      const res = await search(params)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(textOf(html)).toContain(says)
      expect(html).toMatch(FORM)
    }
    const kept = await (await search({ service: 'llamas', place: 'Atlanta' })).text()
    expect(kept).toContain('value="Atlanta"')
  })

  it('never fails on hostile text', async () => {
    for (const place of [
      '<script>alert(1)</script>',
      'a'.repeat(500),
      '%%%',
      '"; DROP TABLE cities',
      '١٢٣٤٥',
    ]) {
      const res = await search({ service: 'babysitters', place })
      expect(res.status).toBeLessThan(500)
      const html = res.status === 302 ? '' : await res.text()
      expect(html).not.toContain('<script>alert(1)')
    }
  })
})

describe('/_data/search', () => {
  const suggest = (place: string) =>
    fetchPage(`/_data/search?place=${encodeURIComponent(place)}`, {
      headers: { 'x-data-request': '1' },
    })

  it('suggests the catalog’s cities for the letters typed, most populous first', async () => {
    const res = await suggest('atl')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-robots-tag')).toBe('noindex')
    expect(res.headers.get('cache-control')).toBe('private, max-age=300')
    const { places } = await res.json<{ places: { slug: string; name: string }[] }>()
    expect(places[0]).toEqual({ slug: 'atlanta-ga', name: 'Atlanta', stateCode: 'GA' })
    const spring = await (await suggest('springf')).json<{ places: { slug: string }[] }>()
    expect(spring.places.map((p) => p.slug)).toEqual(['springfield-mo', 'springfield-il'])
  })

  it('suggests nothing for digits or a lone letter, and only answers the browser script', async () => {
    for (const place of ['303', 'a', ''])
      expect(await (await suggest(place)).json()).toEqual({ places: [] })
    expect((await fetchPage('/_data/search?place=atl')).status).toBe(400)
  })
})
