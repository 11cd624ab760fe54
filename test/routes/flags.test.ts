import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FLAG_NAMES, FLAGS } from '../../src/flags/definitions'
import { FLAGS_MAX_AGE_MS } from '../../src/flags/read-flags'
import { anIsolate, cardLinks, GOOGLEBOT, robotsOf } from '../support/fetch-page'
import { unreachable, withFaults } from '../support/with-faults'

// Requests here go through an isolate of this file's own, a fresh one after each change to the
// flag store: an isolate keeps the flag set it read for 20 s.
let isolate = anIsolate()
const page = (path: string, init?: RequestInit) => isolate.page(path, init)
const fetchPage = (path: string, init?: RequestInit) => isolate.fetchPage(path, init)
const settled = (path: string, init?: RequestInit) => isolate.settled(path, init)

/** Puts a flag store document in the real local KV; a fresh isolate reads it. */
async function store(doc: unknown) {
  await env.FLAGS.put('flags', typeof doc === 'string' ? doc : JSON.stringify(doc))
  isolate = anIsolate()
}
const enable = (name: string) => store({ flags: { [name]: { state: 'ENABLED' } } })
const disable = (name: string) =>
  store({ flags: { [name]: { state: 'DISABLED', default: false } } })
const configure = (config: Record<string, unknown>) => store({ config })

afterEach(async () => {
  await env.FLAGS.delete('flags')
  isolate = anIsolate()
})

const DEVICE_A = '11111111-1111-4111-8111-111111111111'

/** A store in which every flag and configuration key has the value opposite its default. */
const EVERYTHING_FLIPPED = {
  flags: Object.fromEntries(
    FLAG_NAMES.map((name) => [
      name,
      FLAGS[name].default ? { state: 'ENABLED', rules: [{ value: false }] } : { state: 'ENABLED' },
    ]),
  ),
  config: {
    tagManagerEnabled: true,
    tagManagerId: 'GTM-WALK01',
    traceSampleRates: { server: 1, client: 1 },
    accessibilityWidgetEnabled: true,
    costGuideLocalPage: false,
    greaterCareReskin: true,
  },
}

describe('every flag has a visible effect', () => {
  it('daycareDirectoryFlow: the day-care directory and its links exist, or 404', async () => {
    expect((await page('/day-care/atlanta-ga')).res.status).toBe(200)
    expect((await page('/nannies')).html).toContain('<a href="/day-care">Daycare centers</a>')
    await disable('daycareDirectoryFlow')
    expect((await page('/day-care/atlanta-ga')).res.status).toBe(404)
    expect((await page('/day-care')).res.status).toBe(404)
    for (const path of ['/nannies', '/local/atlanta-ga', '/babysitters/atlanta-ga']) {
      expect((await page(path, { headers: { 'user-agent': GOOGLEBOT } })).html).not.toContain(
        'href="/day-care',
      )
    }
  })

  it('pillarPageRouting: national pages use the pillar layout, or the simple one', async () => {
    expect((await page('/babysitters')).html).toContain('Top cities for babysitters')
    expect((await page('/babysitters')).html).toContain('href="/cost/babysitters"')
    await disable('pillarPageRouting')
    const { html } = await page('/babysitters')
    expect(html).not.toContain('Top cities for babysitters')
    expect(html).not.toContain('href="/cost/babysitters"')
    expect(html).toContain('Babysitters by state')
  })

  it('providerSignUpBanner: activities pages invite providers', async () => {
    expect((await page('/explore/d/robotics')).html).not.toContain('List your activities')
    await enable('providerSignUpBanner')
    expect((await page('/explore/d/robotics')).html).toContain('List your activities')
  })

  it('rankedDirectorySorting: RECOMMENDED by ranking score, or by recency', async () => {
    const ranked = cardLinks((await page('/babysitters/atlanta-ga')).html)
    const newest = cardLinks((await page('/babysitters/atlanta-ga?sort=newest')).html)
    expect(ranked).not.toEqual(newest)
    await disable('rankedDirectorySorting')
    expect(cardLinks((await page('/babysitters/atlanta-ga')).html)).toEqual(newest)
  })

  it('campsFilter: the onlyCampActivities filter is offered, or ignored', async () => {
    expect((await page('/explore/d/stem')).html).toContain('name="onlyCampActivities"')
    const camps = await page('/explore/d/stem?onlyCampActivities=true')
    expect(robotsOf(camps.html)).toBe('noindex,follow')
    await disable('campsFilter')
    expect((await page('/explore/d/stem')).html).not.toContain('name="onlyCampActivities"')
    const ignored = await page('/explore/d/stem?onlyCampActivities=true')
    expect(robotsOf(ignored.html)).toBe('index,follow')
    expect(cardIds(ignored.html)).toEqual(cardIds((await page('/explore/d/stem')).html))
  })

  it('embeddedGuestMessaging: profiles show a message form to visitors', async () => {
    const [profile = ''] = cardLinks((await page('/babysitters/atlanta-ga')).html)
    expect((await page(profile)).html).not.toContain('class="message-form"')
    await enable('embeddedGuestMessaging')
    expect((await page(profile)).html).toContain(
      `<form class="message-form" action="${profile}/message" method="post">`,
    )
  })

  it('adultCareEnrollmentRollout: adult care calls to action go to the new enrollment step', async () => {
    expect((await page('/adult-care')).html).toContain(
      'class="cta" href="/us-subscription/segment/nonmember/adult-care?from=%2Fadult-care"',
    )
    await enable('adultCareEnrollmentRollout')
    const { html } = await page('/adult-care')
    expect(html).toContain(
      'class="cta" href="/us-subscription/segment/nonmember/in-facility/who-needs-care?segment=adult-care&amp;from=%2Fadult-care"',
    )
    expect((await page('/babysitters')).html).toContain(
      'class="cta" href="/us-subscription/segment/nonmember/babysitters?from=%2Fbabysitters"',
    )
  })

  it('cookingCategory: cooking pages and links exist, or 404', async () => {
    expect((await page('/explore/d/cooking')).res.status).toBe(200)
    expect((await page('/explore/d/music')).html).toContain('href="/explore/d/cooking"')
    await disable('cookingCategory')
    expect((await page('/explore/d/cooking')).res.status).toBe(404)
    expect((await page('/explore/d/music')).html).not.toContain('href="/explore/d/cooking"')
  })

  it('robustDaycareCards: daycare cards show age groups, schedules, capacity and hours', async () => {
    expect((await page('/day-care/atlanta-ga')).html).not.toContain('Schedules: ')
    await enable('robustDaycareCards')
    const { html } = await page('/day-care/atlanta-ga')
    expect(html).toContain('Schedules: ')
    expect(html).toMatch(/\d+ children · \d{1,2}:\d{2} AM – \d{1,2}:\d{2} PM/)
  })
})

describe('every configuration key has a visible effect', () => {
  it('tagManagerEnabled: the data layer and the tag manager snippet, with the CSP nonce', async () => {
    expect((await page('/nannies')).html).not.toContain('googletagmanager')
    await configure({ tagManagerEnabled: true, tagManagerId: 'GTM-TEST42' })
    const res = await fetchPage('/babysitters/atlanta-ga')
    const html = await res.text()
    const script = /<script nonce="([^"]+)">window\.dataLayer=.*?<\/script>/.exec(html)
    expect(script?.[1]).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(script?.[0]).toContain('"pageType":"seoSearchListing"')
    expect(script?.[0]).toContain('"pageKind":"PROVIDERS"')
    expect(script?.[0]).toContain('"service":"babysitters"')
    expect(script?.[0]).toContain('"city":"atlanta-ga"')
    expect(script?.[0]).toContain('"GTM-TEST42"')
    const [profile = ''] = cardLinks(html)
    expect((await page(profile)).html).toContain('"pageType":"seoProviderProfile","pageId":1050')
  })

  it('tagManagerEnabled: a rendered-once error page still gets a nonce of its own', async () => {
    await configure({ tagManagerEnabled: true, tagManagerId: 'GTM-TEST42' })
    const pages = await Promise.all(
      ['/nannies/atlanta-ga?page=90', '/nannies/atlanta-ga?page=91'].map((p) => page(p)),
    )
    const nonces = pages.map(({ res, html }) => {
      expect(res.status).toBe(404)
      expect(html).toContain('"pageType":"seoSearchListing"')
      expect(html).toContain('"city":null')
      return /<script nonce="([^"]+)">window\.dataLayer=/.exec(html)?.[1]
    })
    expect(nonces[0]).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(nonces[1]).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(nonces[0]).not.toBe(nonces[1])
    const [a, b] = pages.map(({ html }) => html.replace(/nonce="[^"]+"/g, ''))
    expect(a).toBe(b)
  })

  it('traceSampleRates: the rate error reporting uses, given to the browser script', async () => {
    const config = (html: string) =>
      JSON.parse(
        /<script type="application\/json" id="client-config">(.*?)<\/script>/.exec(html)?.[1] ??
          'null',
      ) as { traceSampleRate: number } | null
    expect(config((await page('/nannies/atlanta-ga')).html)?.traceSampleRate).toBe(0.05)
    await configure({ traceSampleRates: { server: 0.5, client: 0.25 } })
    expect(config((await page('/nannies/atlanta-ga')).html)?.traceSampleRate).toBe(0.25)
  })

  it('accessibilityWidgetEnabled: text size and contrast controls in the header', async () => {
    expect((await page('/nannies')).html).not.toContain('a11y-widget')
    await configure({ accessibilityWidgetEnabled: true })
    expect((await page('/nannies')).html).toContain(
      '<details class="a11y-widget"><summary>Accessibility</summary>',
    )
  })

  it('costGuideLocalPage: city cost guides exist, or only the national ones', async () => {
    expect((await page('/cost/babysitters/atlanta-ga')).res.status).toBe(200)
    await configure({ costGuideLocalPage: false })
    expect((await page('/cost/babysitters/atlanta-ga')).res.status).toBe(404)
    expect((await page('/cost/babysitters')).res.status).toBe(200)
    expect((await page('/cost/babysitters')).html).not.toContain('href="/cost/babysitters/')
    expect((await page('/babysitters/atlanta-ga')).html).not.toContain(
      'href="/cost/babysitters/atlanta-ga"',
    )
  })

  it('greaterCareReskin: an alternate theme', async () => {
    expect((await page('/nannies')).html).toContain('<html lang="en">')
    await configure({ greaterCareReskin: true })
    expect((await page('/nannies')).html).toContain('<html lang="en" class="theme-greater">')
  })
})

describe('targeting, rollout and variants', () => {
  it('targets a rule by service from the URL', async () => {
    await store({
      flags: {
        pillarPageRouting: {
          state: 'ENABLED',
          default: true,
          rules: [{ services: ['babysitters'], value: false }],
        },
      },
    })
    expect((await page('/babysitters')).html).not.toContain('Top cities for babysitters')
    expect((await page('/nannies')).html).toContain('Top cities for nannies')
  })

  it('gives visitors in different rollout buckets different variants, each stable', async () => {
    await store({
      flags: {
        embeddedGuestMessaging: { state: 'ENABLED', default: false, rules: [{ percentage: 50 }] },
      },
    })
    const profile = await aProfile()
    const variants = new Map<string, string>()
    for (let i = 0; i < 20; i++) {
      const id = `22222222-2222-4222-8222-${String(i).padStart(12, '0')}`
      const res = await fetchPage(profile, { headers: { cookie: `care_did=${id}` } })
      variants.set(id, res.headers.get('x-variant') ?? '')
      const again = await fetchPage(profile, { headers: { cookie: `care_did=${id}` } })
      expect(again.headers.get('x-variant')).toBe(variants.get(id))
    }
    expect(new Set(variants.values()).size).toBe(2)
    // The flag shapes profiles alone: on a directory, every bucket is one variant.
    const directory = new Set<string>()
    for (const id of [...variants.keys()].slice(0, 6)) {
      const res = await fetchPage('/nannies/atlanta-ga', { headers: { cookie: `care_did=${id}` } })
      directory.add(res.headers.get('x-variant') ?? '')
    }
    expect(directory.size).toBe(1)
  })

  it('follows a per-device override', async () => {
    await store({
      flags: {
        providerSignUpBanner: {
          state: 'ENABLED',
          rules: [{ value: false }],
          overrides: { [DEVICE_A]: true },
        },
      },
    })
    expect(
      (await page('/explore/d/robotics', { headers: { cookie: `care_did=${DEVICE_A}` } })).html,
    ).toContain('List your activities')
    expect((await page('/explore/d/robotics')).html).not.toContain('List your activities')
  })

  it('gives crawlers one stable variant per URL, outside partial rollouts', async () => {
    await store({
      flags: {
        embeddedGuestMessaging: { state: 'ENABLED', default: false, rules: [{ percentage: 99 }] },
      },
    })
    const profile = await aProfile()
    const variants = new Set<string>()
    for (let i = 0; i < 5; i++) {
      const res = await fetchPage(profile, { headers: { 'user-agent': GOOGLEBOT } })
      variants.add(res.headers.get('x-variant') ?? '')
    }
    expect(variants.size).toBe(1)
  })

  it.each([
    ['the documented defaults', null],
    ['every flag and key the other way', EVERYTHING_FLIPPED],
  ])('stores every kind of page under a variant naming all it read, with %s', async (_, doc) => {
    if (doc) await store(doc)
    const listing = (await settled('/babysitting-jobs/atlanta-ga')).body
    const job = /href="(\/job\/[a-z0-9-]+)"/.exec(listing)?.[1] ?? '/job/none-1'
    const paths = [
      '/nannies',
      '/nannies/ga',
      '/nannies/atlanta-ga',
      '/_data/nannies/atlanta-ga',
      '/day-care/atlanta-ga',
      '/babysitting-jobs/atlanta-ga',
      '/local/atlanta-ga',
      await aProfile(),
      job,
      '/cost/babysitters',
      '/cost/babysitters/atlanta-ga',
      '/explore/d/stem',
      '/explore/d/cooking',
      '/adult-care',
      '/sitemap.xml',
      '/robots.txt',
    ]
    const headers = { 'x-data-request': '1' }
    for (const path of paths) {
      await settled(path, { headers })
      const again = await settled(path, { headers })
      expect([path, again.cache]).toEqual([path, 'HIT'])
    }
  })

  it.each([
    ['empty', null],
    ['malformed', '{"flags": {'],
    [
      'full of unknown fields',
      {
        flags: { providerSignUpBanner: { state: 'ENABLED', when: 'always' } },
        config: { theme: 'dark' },
      },
    ],
    [
      'naming a flag INVALID',
      { flags: { providerSignUpBanner: { state: 'INVALID', default: true, rules: [{}] } } },
    ],
  ])('serves the documented defaults when the store is %s', async (_, doc) => {
    // Valid, either document would turn the sign-up banner on (its default is off).
    const defaults = (await fetchPage('/explore/d/robotics')).headers.get('x-variant')
    if (doc !== null) await store(doc)
    const { res, html } = await page('/explore/d/robotics')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-variant')).toBe(defaults)
    expect(html).not.toContain('List your activities')
  })
})

describe('when the flag store cannot be read', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('shows every flag and configuration key at its documented default', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    // Readable, this store would turn everything the other way.
    await store(EVERYTHING_FLIPPED)
    const flags = unreachable(env.FLAGS)
    const get = async (path: string) => {
      const { res, body } = await over({ FLAGS: flags }, path)
      expect([path, res.status]).toEqual([path, 200])
      return body
    }
    expect(await get('/day-care/atlanta-ga')).not.toContain('Schedules: ')
    expect(await get('/babysitters')).toContain('Top cities for babysitters')
    expect(await get('/explore/d/robotics')).not.toContain('List your activities')
    const directory = await get('/babysitters/atlanta-ga')
    expect(directory).toContain('"traceSampleRate":0.05')
    expect(cardLinks(directory)).not.toEqual(
      cardLinks(await get('/babysitters/atlanta-ga?sort=newest')),
    )
    expect(await get('/explore/d/stem')).toContain('name="onlyCampActivities"')
    const [profile = ''] = cardLinks(directory)
    expect(await get(profile)).not.toContain('class="message-form"')
    expect(await get('/adult-care')).toContain(
      'class="cta" href="/us-subscription/segment/nonmember/adult-care?from=%2Fadult-care"',
    )
    expect(await get('/explore/d/cooking')).toContain('<h1')
    const nannies = await get('/nannies')
    expect(nannies).toContain('<a href="/day-care">Daycare centers</a>')
    expect(nannies).toContain('<html lang="en">')
    expect(nannies).not.toContain('googletagmanager')
    expect(nannies).not.toContain('a11y-widget')
    expect(await get('/cost/babysitters/atlanta-ga')).toContain('<h1')
  })
})

describe('when the flag store fails after a good read', () => {
  // Ops turned off a kill switch (the day-care directory) and a flag every directory's variant
  // keys on.
  const OPS_CHANGES = {
    flags: {
      daycareDirectoryFlow: { state: 'DISABLED', default: false },
      rankedDirectorySorting: { state: 'DISABLED', default: false },
    },
  }
  const reports = (errors: { mock: { calls: unknown[][] } }) =>
    errors.mock.calls.filter(([line]) => String(line).includes('flags:')).length

  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('keeps serving the last good set for the retry delay, with one report, then asks KV again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await store(OPS_CHANGES)
    const good = await isolate.settled('/babysitters/atlanta-ga')
    expect(good.cache).toBe('MISS')
    expect((await isolate.settled('/day-care/atlanta-ga')).res.status).toBe(404)

    let reads = 0
    const failing = withFaults(unreachable(env.FLAGS), {
      get: (get, ...args) => {
        reads++
        return get(...args)
      },
    })
    // Past the flag set's age: the isolate asks KV again, and KV fails.
    vi.setSystemTime(Date.now() + FLAGS_MAX_AGE_MS + 1_000)
    const during = [
      await over({ FLAGS: failing }, '/babysitters/atlanta-ga'),
      await over({ FLAGS: failing }, '/day-care/atlanta-ga'),
      await over({ FLAGS: failing }, '/babysitters/atlanta-ga'),
    ]
    expect(during.map(({ res }) => res.status)).toEqual([200, 404, 200])
    for (const { res, cache } of during.filter((_, i) => i !== 1)) {
      expect(cache).toBe('HIT')
      expect(res.headers.get('x-variant')).toBe(good.res.headers.get('x-variant'))
    }
    expect(reads).toBe(1)
    expect(reports(errors)).toBe(1)

    // After the retry delay KV is asked again; still failing, the same set stands.
    vi.setSystemTime(Date.now() + 6_000)
    expect((await over({ FLAGS: failing }, '/day-care/atlanta-ga')).res.status).toBe(404)
    expect(reads).toBe(2)
  })

  it('keeps the last good set when the store then holds a malformed document', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await store(OPS_CHANGES)
    const good = await isolate.settled('/babysitters/atlanta-ga')
    expect((await isolate.settled('/day-care/atlanta-ga')).res.status).toBe(404)

    await env.FLAGS.put('flags', '{"flags": {"daycareDirectoryFlow": ')
    vi.setSystemTime(Date.now() + FLAGS_MAX_AGE_MS + 1_000)
    const after = await isolate.settled('/babysitters/atlanta-ga')
    expect(after.cache).toBe('HIT')
    expect(after.res.headers.get('x-variant')).toBe(good.res.headers.get('x-variant'))
    expect((await isolate.settled('/day-care/atlanta-ga')).res.status).toBe(404)
    expect(reports(errors)).toBe(1)
  })
})

/** A request with some bindings replaced, its background work finished. */
function over(bindings: Partial<Env>, path: string) {
  return isolate.settled(path, {}, bindings)
}

/** The first provider profile of a directory. */
async function aProfile(): Promise<string> {
  const [profile] = cardLinks((await page('/babysitters/atlanta-ga')).html)
  if (!profile) throw new Error('no provider card')
  return profile
}

function cardIds(html: string): string[] {
  return [...html.matchAll(/id="activity-(\d+)"/g)].map((m) => m[1] ?? '')
}
