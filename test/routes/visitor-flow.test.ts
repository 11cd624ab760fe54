import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BUYING_INTENTS } from '../../src/catalog/enums'
import { SEGMENTS } from '../../src/catalog/segments'
import { anIsolate, fetchPage, page, robotsOf, textOf } from '../support/fetch-page'
import { fromShards } from '../support/databases'

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
      expect(html).toContain(`href="${FLOW}/${slug}?from=%2F${slug}"`)
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
    ['a provider’s csc', `csc=${encodeURIComponent('r=provider&s=adult-care&i=rightNow')}`],
  ])(
    'asks an answer of who needs care with %s for the intent on the same page, inventing none',
    async (_, cookie) => {
      const res = await fetchPage(`${FLOW}/in-facility/who-needs-care?who=parent`, {
        headers: cookie ? { cookie } : {},
      })
      expect(res.status).toBe(200)
      expect(cookies(res).has('csc')).toBe(false)
      const html = await res.text()
      expect(html).toContain('name="intent" value="rightNow"')
      // What was answered stays answered.
      expect(isChecked(html, 'who', 'parent')).toBe(true)
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
    // Both hold: nothing is set again, and the page keeps its public policy.
    expect(again.headers.getSetCookie()).toEqual([])
    expect(again.headers.get('cache-control')).toMatch(/^public\b/)
  })

  it('writes n_vis again once its time is five minutes old, in the same visit', async () => {
    const now = Math.floor(Date.now() / 1000)
    const holds = await fetchPage('/nannies', {
      headers: { cookie: `care_did=${DEVICE}; n_vis=2-${now - 4 * 60}` },
    })
    expect(holds.headers.getSetCookie()).toEqual([])
    const due = await fetchPage('/nannies', {
      headers: { cookie: `care_did=${DEVICE}; n_vis=2-${now - 6 * 60}` },
    })
    const set = cookies(due)
    expect([...set.keys()]).toEqual(['n_vis'])
    expect(Number(valueOf(set.get('n_vis')).split('-')[1])).toBeGreaterThanOrEqual(now)
    expect(valueOf(set.get('n_vis'))).toMatch(/^2-/)
    await Promise.all([holds.body?.cancel(), due.body?.cancel()])
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
    // A known visitor's n_vis that is due and a redirect's cookies too; an error page is
    // stored by no cache.
    const known = await fetchPage('/housekeeping/austin-tx', {
      headers: { cookie: `care_did=${DEVICE}; n_vis=1-${Math.floor(Date.now() / 1000) - 600}` },
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

/** An open job's path, from the test catalog. */
async function anOpenJob(): Promise<{ path: string; service: string }> {
  const [job] = (
    await fromShards<{ id: number; slug: string; service: string }>(
      `SELECT id, title_slug AS slug, service FROM jobs WHERE valid_through > ? ORDER BY id LIMIT 1`,
      new Date().toISOString(),
    )
  ).sort((a, b) => a.id - b.id)
  if (!job) throw new Error('the test catalog has no open job')
  return { path: `/job/${job.slug}-${job.id}`, service: job.service }
}

/** Whether the radio button `name` = `value` is checked. */
function isChecked(html: string, name: string, value: string): boolean {
  const input = new RegExp(`<input [^>]*name="${name}"[^>]*value="${value}"[^>]*>`).exec(html)
  return input?.[0].includes('checked=""') ?? false
}

/** The href of the first link whose text is `label`, as the browser reads it. */
function hrefOf(html: string, label: string): string {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m = new RegExp(`<a [^>]*href="([^"]*)"[^>]*>${escaped}</a>`).exec(html)
  return (m?.[1] ?? '').replace(/&amp;/g, '&')
}

describe('returning where the visitor came from', () => {
  it('ends the flow from a city directory on that directory, not on the service', async () => {
    const { html } = await page('/babysitters/atlanta-ga')
    // The intent island's form carries the listing's own path.
    expect(html).toContain(`action="${FLOW}/babysitters"`)
    expect(html).toContain('<input type="hidden" name="from" value="/babysitters/atlanta-ga"/>')
    const res = await fetchPage(
      `${FLOW}/babysitters?from=%2Fbabysitters%2Fatlanta-ga&intent=rightNow`,
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/babysitters/atlanta-ga')
    // So does the island's saving of the answer in place.
    const data = await fetchPage(
      `/_data${FLOW}/babysitters?intent=rightNow&from=%2Fbabysitters%2Fatlanta-ga`,
      { headers: { 'x-data-request': '1' } },
    )
    expect(await data.json()).toEqual({ next: '/babysitters/atlanta-ga' })
  })

  it('keeps where the visitor came from through the step-1 form', async () => {
    const { html } = await page(`${FLOW}/nannies?from=%2Fcost%2Fnannies`)
    expect(html).toContain('<input type="hidden" name="from" value="/cost/nannies"/>')
  })

  it('carries the page through both steps of adult care', async () => {
    const { html } = await page('/cost/senior-care')
    const cta = hrefOf(html, 'Find senior care')
    expect(cta).toBe(`${FLOW}/senior-care?from=%2Fcost%2Fsenior-care`)
    const first = await fetchPage(`${cta}&intent=withInMonth`)
    expect(first.headers.get('location')).toBe(
      `${FLOW}/in-facility/who-needs-care?from=%2Fcost%2Fsenior-care`,
    )
    const cookie = `csc=${encodeURIComponent(valueOf(cookies(first).get('csc')))}`
    const step = await page(first.headers.get('location') ?? '', { headers: { cookie } })
    expect(step.html).toContain('<input type="hidden" name="from" value="/cost/senior-care"/>')
    expect(step.html).not.toContain('name="intent"')
    const last = await fetchPage(
      `${FLOW}/in-facility/who-needs-care?from=%2Fcost%2Fsenior-care&who=self`,
      { headers: { cookie } },
    )
    expect(last.headers.get('location')).toBe('/cost/senior-care')
  })

  it.each([
    ['another host', 'https://evil.example/babysitters'],
    ['a scheme-relative host', '//evil.example/babysitters'],
    ['a backslash', '/\\evil.example'],
    ['a scheme', 'javascript:alert(1)'],
    ['an escaped control character', '/babysitters%0d%0aSet-Cookie:x=1'],
    ['a path the site does not serve', '/babysitters/atlantis'],
    ['an unknown page', '/admin'],
    ['a flow step', `${FLOW}/babysitters`],
    ['a data path', '/_data/babysitters/atlanta-ga'],
    ['a sitemap', '/sitemap.xml'],
    ['a dot segment', '/babysitters/../admin'],
    ['a query', '/babysitters?x=1'],
  ])('ignores a from with %s and falls back to the segment’s page', async (_, from) => {
    const res = await fetchPage(
      `${FLOW}/babysitters?intent=rightNow&from=${encodeURIComponent(from)}`,
    )
    expect([res.status, res.headers.get('location')]).toEqual([303, '/babysitters'])
    const form = await page(`${FLOW}/babysitters?from=${encodeURIComponent(from)}`)
    expect(form.res.status).toBe(200)
    expect(form.html).toContain('name="intent"')
    expect(form.html).not.toContain('name="from"')
  })

  it('answers a from with a control character 400, as any query holding one, and sets nothing', async () => {
    const from = encodeURIComponent('/babysitters\r\nSet-Cookie:x=1')
    for (const path of [
      `${FLOW}/babysitters?intent=rightNow&from=${from}`,
      `${FLOW}/babysitters?from=${from}`,
    ]) {
      const { res, html } = await page(path)
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 400, null])
      expect(html).toContain('400: Bad Request')
      expect(res.headers.getSetCookie().filter((c) => !/^(care_did|n_vis)=/.test(c))).toEqual([])
    }
  })

  it('puts each page’s own path on its call to action', async () => {
    for (const path of ['/babysitters', '/babysitters/ga', '/local/atlanta-ga', '/cost/nannies']) {
      const { html } = await page(path)
      expect(html).toContain(`?from=${encodeURIComponent(path)}"`)
    }
  })
})

describe('the provider entry', () => {
  const ENTRY = `${FLOW}/provider`

  it('asks the kind of work and when they can start, in a GET form that needs no script', async () => {
    const { res, html } = await page(ENTRY)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(html).toContain(`action="${ENTRY}" method="get"`)
    const text = textOf(html)
    expect(text).toContain('What kind of work do you want?')
    expect(text).toContain('When can you start?')
    expect(text).not.toContain('When do you need care?')
    for (const work of ['babysitting-jobs', 'nanny-jobs', 'senior-care-jobs', 'care-gigs'])
      expect(html).toContain(`name="work" value="${work}"`)
    for (const { value } of BUYING_INTENTS) expect(html).toContain(`name="start" value="${value}"`)
    expect(text).toContain('Right away')
  })

  it('keeps the answers in csc with the provider role and returns to the job', async () => {
    const job = await anOpenJob()
    const { html } = await page(job.path)
    const apply = hrefOf(html, 'Apply now')
    expect(apply).toBe(`${ENTRY}?work=${job.service}&from=${encodeURIComponent(job.path)}`)
    const form = await page(apply)
    // The job's family is chosen already; the job is carried through the form.
    expect(isChecked(form.html, 'work', job.service)).toBe(true)
    expect(form.html).toContain(`<input type="hidden" name="from" value="${job.path}"/>`)
    const res = await fetchPage(`${apply}&start=withInWeek`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(job.path)
    const csc = cookies(res).get('csc')
    expect(valueOf(csc)).toBe(`r=provider&s=${job.service}&i=withInWeek`)
    expect(csc).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it('shows what it noted when there is no page to return to', async () => {
    const res = await fetchPage(`${ENTRY}?work=tutoring-jobs&start=rightNow`)
    expect(res.headers.get('location')).toBe(ENTRY)
    const cookie = `csc=${encodeURIComponent(valueOf(cookies(res).get('csc')))}`
    const { html } = await page(ENTRY, { headers: { cookie } })
    expect(textOf(html)).toContain('Noted: Tutoring jobs, starting right away.')
    expect(isChecked(html, 'work', 'tutoring-jobs')).toBe(true)
    // A provider's answers are no buying intent: the in-facility step still asks one.
    const step = await page(`${FLOW}/in-facility/who-needs-care`, { headers: { cookie } })
    expect(step.html).toContain('name="intent"')
  })

  it('keeps a partial answer and asks the rest', async () => {
    const res = await fetchPage(`${ENTRY}?start=withInMonth`)
    expect(res.status).toBe(200)
    expect(cookies(res).has('csc')).toBe(false)
    expect(isChecked(await res.text(), 'start', 'withInMonth')).toBe(true)
  })

  it.each([`${ENTRY}?work=astronaut-jobs`, `${ENTRY}?work=nanny-jobs&start=someday`])(
    'answers %s with 400 and stores nothing',
    async (path) => {
      const res = await fetchPage(path)
      expect(res.status).toBe(400)
      expect(cookies(res).has('csc')).toBe(false)
    },
  )

  it('is where job listings send people who want work', async () => {
    const { html } = await page('/babysitting-jobs/atlanta-ga')
    expect(hrefOf(html, 'Join and apply')).toBe(
      `${ENTRY}?work=babysitting-jobs&from=%2Fbabysitting-jobs%2Fatlanta-ga`,
    )
  })
})

describe('with flags', () => {
  let isolate = anIsolate()
  async function enable(name: string) {
    await env.FLAGS.put('flags', JSON.stringify({ flags: { [name]: { state: 'ENABLED' } } }))
    isolate = anIsolate()
  }
  afterEach(async () => {
    await env.FLAGS.delete('flags')
    isolate = anIsolate()
  })

  it('the provider sign-up banner and camps pages lead to the provider entry', async () => {
    await enable('providerSignUpBanner')
    const { html } = await isolate.page('/explore/d/music')
    expect(hrefOf(html, 'List your activities')).toBe(
      `${FLOW}/provider?from=%2Fexplore%2Fd%2Fmusic`,
    )
  })

  it('the adult care enrollment rollout shortens the flow to one page and never loops', async () => {
    await enable('adultCareEnrollmentRollout')
    const { html } = await isolate.page('/adult-care')
    const cta = hrefOf(html, 'Get started')
    expect(cta).toBe(`${FLOW}/in-facility/who-needs-care?segment=adult-care&from=%2Fadult-care`)
    // No step 1 behind the visitor: this one page asks both, once.
    const step = await isolate.page(cta)
    expect(step.res.status).toBe(200)
    expect(step.html).toContain('name="intent" value="rightNow"')
    expect(step.html).toContain('name="who" value="parent"')
    expect(step.html).toContain('<input type="hidden" name="segment" value="adult-care"/>')
    const done = await isolate.fetchPage(`${cta}&intent=withInWeek&who=spouse`)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/adult-care')
    expect(valueOf(cookies(done).get('csc'))).toBe('s=adult-care&i=withInWeek&w=spouse')
  })

  it('a visitor who answered step 1 before the rollout is asked only who needs care', async () => {
    await enable('adultCareEnrollmentRollout')
    const cookie = `csc=${encodeURIComponent('s=respite-care&i=rightNow')}`
    const step = await isolate.page(
      `${FLOW}/in-facility/who-needs-care?segment=respite-care&from=%2Frespite-care`,
      { headers: { cookie } },
    )
    expect(step.html).not.toContain('name="intent"')
    const done = await isolate.fetchPage(
      `${FLOW}/in-facility/who-needs-care?segment=respite-care&from=%2Frespite-care&who=self`,
      { headers: { cookie } },
    )
    expect(done.headers.get('location')).toBe('/respite-care')
    expect(valueOf(cookies(done).get('csc'))).toBe('s=respite-care&i=rightNow&w=self')
  })
})
