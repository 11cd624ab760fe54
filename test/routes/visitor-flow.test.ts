import { describe, expect, it, vi } from 'vitest'
import { BUYING_INTENTS } from '../../src/catalog/enums'
import { SEGMENTS } from '../../src/catalog/segments'
import { anIsolate, fetchPage, page, robotsOf, textOf } from '../support/fetch-page'

const FLOW = '/us-subscription/segment/nonmember'
const DEVICE = '44444444-4444-4444-8444-444444444444'

/** Set-Cookie headers of a response, by cookie name. */
function cookies(res: Response): Map<string, string> {
  return new Map(res.headers.getSetCookie().map((c) => [c.slice(0, c.indexOf('=')), c]))
}

function valueOf(setCookie: string | undefined): string {
  return decodeURIComponent(/^[^=]+=([^;]*)/.exec(setCookie ?? '')?.[1] ?? '')
}

describe('segment pages', () => {
  it.each(SEGMENTS.map((s) => s.slug))(
    '/%s answers 200 with a way into the visitor flow',
    async (slug) => {
      const { res, html } = await page(`/${slug}`)
      expect(res.status).toBe(200)
      expect(robotsOf(html)).toBe('index,follow')
      expect(html).toContain(`href="${FLOW}/${slug}"`)
    },
  )
})

describe('the visitor flow', () => {
  it('asks the buying intent with the seed’s four choices in a plain GET form', async () => {
    const { res, html } = await page(`${FLOW}/babysitters`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(html).toContain(`action="${FLOW}/babysitters" method="get"`)
    for (const { label, value } of BUYING_INTENTS) {
      expect(html).toContain(`name="intent" value="${value}"`)
      expect(textOf(html)).toContain(label)
    }
  })

  it('stores the choice in csc and moves on, as submitting the form without JavaScript does', async () => {
    const res = await fetchPage(`${FLOW}/babysitters?intent=withInWeek`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/babysitters')
    const csc = cookies(res).get('csc')
    expect(valueOf(csc)).toBe('s=babysitters&i=withInWeek')
    expect(csc).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it('takes adult care on to the in-facility step, which adds who needs care', async () => {
    const first = await fetchPage(`${FLOW}/adult-care?intent=rightNow`)
    expect(first.headers.get('location')).toBe(`${FLOW}/in-facility/who-needs-care`)
    const csc = valueOf(cookies(first).get('csc'))
    const step = await page(`${FLOW}/in-facility/who-needs-care`, {
      headers: { cookie: `csc=${encodeURIComponent(csc)}` },
    })
    expect(step.html).toContain('name="who" value="parent"')
    const second = await fetchPage(`${FLOW}/in-facility/who-needs-care?who=parent`, {
      headers: { cookie: `csc=${encodeURIComponent(csc)}` },
    })
    expect(second.status).toBe(303)
    expect(second.headers.get('location')).toBe('/adult-care')
    expect(valueOf(cookies(second).get('csc'))).toBe('s=adult-care&i=rightNow&w=parent')
  })

  it.each([
    ['no csc cookie', ''],
    ['a csc without an intent', `csc=${encodeURIComponent('s=adult-care')}`],
    ['a csc with an unknown intent', `csc=${encodeURIComponent('s=adult-care&i=someday')}`],
    ['a csc of an unknown segment', `csc=${encodeURIComponent('s=dragons&i=rightNow')}`],
  ])(
    'sends an answer of who needs care with %s back to step 1, inventing no intent',
    async (_, cookie) => {
      const res = await fetchPage(`${FLOW}/in-facility/who-needs-care?who=parent`, {
        headers: cookie ? { cookie } : {},
      })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe(`${FLOW}/adult-care`)
      expect(cookies(res).has('csc')).toBe(false)
      const step1 = await page(`${FLOW}/adult-care`)
      expect(step1.html).toContain('name="intent" value="rightNow"')
    },
  )

  it.each([
    `${FLOW}/babysitters?intent=tomorrow`,
    `${FLOW}/babysitters?intent=`,
    `${FLOW}/in-facility/who-needs-care?who=neighbour`,
  ])('answers %s with 400 and stores nothing', async (path) => {
    const res = await fetchPage(path)
    expect(res.status).toBe(400)
    expect(cookies(res).has('csc')).toBe(false)
  })

  it('answers an unknown segment with 404', async () => {
    expect((await fetchPage(`${FLOW}/dragons`)).status).toBe(404)
  })
})

describe('visitor cookies', () => {
  it('sets care_did once and counts the first visit, HttpOnly, Secure, SameSite=Lax, Path=/', async () => {
    const res = await fetchPage('/babysitters/atlanta-ga')
    const set = cookies(res)
    expect(valueOf(set.get('care_did'))).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    )
    expect(valueOf(set.get('n_vis'))).toMatch(/^1-\d+$/)
    for (const cookie of set.values())
      expect(cookie).toMatch(/; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/)

    const again = await fetchPage('/babysitters/atlanta-ga', {
      headers: {
        cookie: `care_did=${valueOf(set.get('care_did'))}; n_vis=${valueOf(set.get('n_vis'))}`,
      },
    })
    expect(cookies(again).has('care_did')).toBe(false)
    expect(valueOf(cookies(again).get('n_vis'))).toMatch(/^1-\d+$/)
  })

  it('keep every response that sets one out of shared caches: private, rendered or a hit from either path', async () => {
    const isolate = anIsolate()
    const answers = []
    for (let i = 0; i < 4; i++) {
      const pipeline = vi.spyOn(isolate.app, 'fetch')
      const { res, cache } = await isolate.settled('/housekeeping/austin-tx')
      answers.push({ res, cache, fast: pipeline.mock.calls.length === 0 })
      pipeline.mockRestore()
    }
    expect(answers.map(({ cache }) => cache)).toEqual(['MISS', 'HIT', 'HIT', 'HIT'])
    expect(answers.some(({ fast }) => fast)).toBe(true)
    for (const { res } of answers) {
      expect(res.headers.getSetCookie().length).toBeGreaterThan(0)
      // The browser keeps the page's own windows; no shared cache may store it.
      expect(res.headers.get('cache-control')).toBe(
        'private, max-age=0, stale-while-revalidate=3600, stale-if-error=604800',
      )
    }
    // A known visitor's n_vis and a redirect's cookies too; an error page is stored by no cache.
    const known = await fetchPage('/housekeeping/austin-tx', {
      headers: { cookie: `care_did=${DEVICE}; n_vis=1-${Math.floor(Date.now() / 1000)}` },
    })
    const missing = await fetchPage('/housekeeping/atlantis-zz')
    const moved = await fetchPage('/Housekeeping/Austin-TX')
    for (const res of [known, missing, moved]) {
      expect(res.headers.getSetCookie().length).toBeGreaterThan(0)
      expect(res.headers.get('cache-control')).toMatch(/^(private\b|no-store$)/)
      expect(res.headers.get('cache-control')).not.toMatch(/public|s-maxage/)
      await res.body?.cancel()
    }
    // A prefetch sets no cookie, so it keeps the public policy.
    const prefetch = await fetchPage('/housekeeping/austin-tx', {
      headers: { purpose: 'prefetch' },
    })
    expect(prefetch.headers.getSetCookie()).toEqual([])
    expect(prefetch.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=600/)
    await prefetch.body?.cancel()
  })

  it('counts a new visit after 30 minutes without a request', async () => {
    const now = Math.floor(Date.now() / 1000)
    const within = await fetchPage('/nannies', { headers: { cookie: `n_vis=4-${now - 29 * 60}` } })
    expect(valueOf(cookies(within).get('n_vis'))).toMatch(/^4-/)
    const after = await fetchPage('/nannies', { headers: { cookie: `n_vis=4-${now - 31 * 60}` } })
    expect(valueOf(cookies(after).get('n_vis'))).toMatch(/^5-/)
  })

  it.each([
    ['purpose', 'prefetch'],
    ['sec-purpose', 'prefetch'],
    ['sec-purpose', 'prefetch;prerender'],
  ])('sets no cookie and counts nothing for a prefetch (%s: %s)', async (name, value) => {
    const headers = { [name]: value }
    const res = await fetchPage('/nannies', { headers })
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual([])
    const flow = await fetchPage(`${FLOW}/babysitters?intent=rightNow`, { headers })
    expect(flow.headers.getSetCookie()).toEqual([])
  })
})
