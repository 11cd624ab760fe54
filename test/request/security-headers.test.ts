import { env } from 'cloudflare:workers'
import { describe, expect, inject, it, vi } from 'vitest'
import { policy } from '../../src/lib/content-security-policy'
import { aProvider, cityId } from '../support/builders'
import { anIsolate, fetchPage, ORIGIN, settled } from '../support/fetch-page'
import { inlineScripts } from '../support/inline-scripts'

const ALWAYS = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
}

/** A profile whose own code fails while it renders (a date no code expects): a 500. */
async function brokenProfile(): Promise<string> {
  const p = await aProvider({
    cityId: await cityId('atlanta-ga'),
    service: 'babysitters',
    createdAt: 'sometime last spring',
  })
  return `/p/test-p-${p.id}`
}

const nonces = (html: string) => [...html.matchAll(/ nonce="([^"]*)"/g)].map((m) => m[1])
const policyNonce = (res: Response) =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]

describe('security headers', () => {
  it('are on every response: pages, hits, 304s, errors, 5xx, redirects, JSON, text and ops', async () => {
    await settled('/babysitters/atlanta-ga')
    const page = await settled('/babysitters/atlanta-ga')
    const etag = page.res.headers.get('etag') ?? ''
    const failing = await brokenProfile()
    const responses = await Promise.all([
      fetchPage('/babysitters/atlanta-ga'),
      fetchPage('/babysitters/atlanta-ga', { headers: { 'if-none-match': etag } }),
      fetchPage('/babysitters/atlantis-zz'),
      fetchPage('/babysitters/atlanta-ga?distance=7'),
      fetchPage('/babysitters/atlanta-ga', { method: 'DELETE' }),
      fetchPage('/Babysitters/Atlanta-GA'),
      fetchPage('/_data/babysitters/atlanta-ga', { headers: { 'x-data-request': '1' } }),
      fetchPage('/robots.txt'),
      fetchPage('/sitemap.xml'),
      fetchPage('/__ops/purge', { method: 'POST', body: '{}' }),
      fetchPage(failing),
    ])
    expect(responses.map((r) => r.status)).toEqual([
      200, 304, 404, 400, 405, 301, 200, 200, 200, 401, 500,
    ])
    for (const res of [page.res, ...responses]) {
      for (const [name, value] of Object.entries(ALWAYS)) expect(res.headers.get(name)).toBe(value)
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      if (!res.bodyUsed) await res.body?.cancel()
    }
  })

  it("give each render a nonce of its own, and a stored copy its scripts' hashes", async () => {
    const fresh = await settled('/nannies/atlanta-ga')
    const stored = await settled('/nannies/atlanta-ga')
    const again = await settled('/nannies/atlanta-ga')
    expect([fresh.cache, stored.cache, again.cache]).toEqual(['MISS', 'HIT', 'HIT'])
    // The render: the nonce in its policy is on every script of its document.
    const nonce = policyNonce(fresh.res)
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(nonces(fresh.body).length).toBeGreaterThan(0)
    for (const n of nonces(fresh.body)) expect(n).toBe(nonce)
    const run = await inlineScripts(fresh.res, fresh.body)
    expect(run.length).toBeGreaterThan(0)
    expect(new Set(run)).toEqual(new Set(['nonce']))
    // The stored copy: the same bytes every time, no nonce, every inline script by its hash.
    for (const hit of [stored, again]) {
      expect(policyNonce(hit.res)).toBeUndefined()
      expect(nonces(hit.body).every((n) => n === '')).toBe(true)
      expect(await inlineScripts(hit.res, hit.body)).toEqual(run.map(() => 'hash'))
    }
    expect(again.body).toBe(stored.body)
    expect(again.res.headers.get('content-security-policy')).toBe(
      stored.res.headers.get('content-security-policy'),
    )
    const json = await fetchPage('/_data/nannies/atlanta-ga', {
      headers: { 'x-data-request': '1' },
    })
    expect(policyNonce(json)).toBeUndefined()
    await json.body?.cancel()
  })

  it("allow no script but the site's own, the response's and Turnstile's, and reports only to Sentry", () => {
    expect(policy({ nonce: 'abc', tagManager: true }, 'https://key@o1.ingest.sentry.io/5')).toBe(
      [
        "default-src 'self'",
        "script-src 'self' 'nonce-abc' https://www.googletagmanager.com https://challenges.cloudflare.com",
        'frame-src https://challenges.cloudflare.com',
        "style-src 'self'",
        "img-src 'self' data: https:",
        "connect-src 'self' https://o1.ingest.sentry.io",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    )
    expect(policy({ nonce: 'abc', tagManager: false }, '')).toContain(
      "script-src 'self' 'nonce-abc' https://challenges.cloudflare.com;",
    )
    expect(policy({ hashes: ["'sha256-a'", "'sha256-b'"], tagManager: false }, '')).toContain(
      "script-src 'self' 'sha256-a' 'sha256-b' https://challenges.cloudflare.com;",
    )
    expect(policy(null, '')).toContain("script-src 'self' https://challenges.cloudflare.com;")
    expect(policy(null, 'not a url')).toContain("connect-src 'self';")
  })

  it.each([
    ['off', {}],
    ['on', { config: { tagManagerEnabled: true } }],
  ])(
    "name the tag manager's origin exactly where the document loads it, with the tag manager %s",
    async (state, doc) => {
      await env.FLAGS.put('flags', JSON.stringify(doc))
      const isolate = anIsolate()
      const answers: { res: Response; body: string; fast: boolean }[] = []
      const serve = async (path: string, init: RequestInit = {}) => {
        const pipeline = vi.spyOn(isolate.app, 'fetch')
        const { res, body } = await isolate.settled(path, init)
        answers.push({ res, body, fast: pipeline.mock.calls.length === 0 })
        pipeline.mockRestore()
      }
      // The gate's 404 once before, unrecorded: the 404 is rendered once per isolate and then
      // sent as it is, so both recorded below are that copy, whatever an earlier test rendered.
      await isolate.settled('/senior-care/atlantis-zz')
      // Rendered, served again by the pipeline, then by the fast path; the gate's 404 twice;
      // an error page; JSON.
      for (const path of [
        ...Array<string>(3).fill('/senior-care/austin-tx'),
        '/senior-care/atlantis-zz',
        '/senior-care/atlantis-zz',
        '/senior-care/austin-tx?distance=7',
      ])
        await serve(path)
      await serve('/_data/senior-care/austin-tx', { headers: { 'x-data-request': '1' } })
      await env.FLAGS.delete('flags')

      expect(answers.map(({ res }) => res.status)).toEqual([200, 200, 200, 404, 404, 400, 200])
      expect(answers.filter(({ fast }) => fast).length).toBeGreaterThanOrEqual(2)
      const loads = answers.map(({ body }) => body.includes('https://www.googletagmanager.com/'))
      const allows = answers.map(({ res }) =>
        /script-src [^;]*https:\/\/www\.googletagmanager\.com/.test(
          res.headers.get('content-security-policy') ?? '',
        ),
      )
      expect(allows).toEqual(loads)
      const page = state === 'on'
      // Pages load it while it is on; what is answered before the flags are read never does.
      expect(loads).toEqual([page, page, page, false, false, page, false])
      // Every inline script may run. The tag manager passes the nonce it finds on to the
      // scripts it adds, so while it is on a stored page gets a nonce of its own each time;
      // while it is off, a stored page and an error page rendered once are sent as they are.
      for (const { res, body } of answers)
        expect(await inlineScripts(res, body)).not.toContain('blocked')
      const nonced = answers.map(({ res }) => policyNonce(res) !== undefined)
      expect(nonced).toEqual([true, page, page, false, false, true, false])
    },
  )

  it('never show a secret, in a response, a log line or an error report: not the purge tokens, not the DSN', async () => {
    const secrets = ['test-ops-token', 'test-ci-token', env.SENTRY_DSN ?? 'unset']
    const logged: string[] = []
    const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
    const log = vi.spyOn(console, 'log').mockImplementation(keep)
    const error = vi.spyOn(console, 'error').mockImplementation(keep)
    // A 500, reported to Sentry, from a client that sends the secrets back in every place a
    // report could pick them up: the query, a cookie, the authorization and the referer.
    const failing = await brokenProfile()
    const reported = await settled(`${failing}?token=test-ops-token&page=1`, {
      headers: {
        authorization: 'Bearer test-ops-token',
        cookie: 'token=test-ci-token',
        referer: `${ORIGIN}/__ops/purge?token=test-ops-token`,
      },
    })
    expect(reported.res.status).toBe(500)
    const responses = await Promise.all(
      [
        '/babysitters/atlanta-ga',
        '/babysitters/atlantis-zz',
        '/babysitters/atlanta-ga?distance=7',
        '/us-subscription/segment/nonmember/babysitters',
      ].map((path) => fetchPage(path)),
    )
    responses.push(
      await fetchPage('/__ops/purge', {
        method: 'POST',
        headers: { authorization: 'Bearer wrong' },
        body: '{"tags":["x"]}',
      }),
      await fetchPage('/__ops/purge', {
        method: 'POST',
        headers: { authorization: 'Bearer test-ops-token' },
        body: '{"tags":["page:robots"]}',
      }),
    )
    const texts = await Promise.all(
      responses.map(async (res) => [...res.headers].join('\n') + (await res.text())),
    )
    texts.push([...reported.res.headers].join('\n') + reported.body)
    log.mockRestore()
    error.mockRestore()
    expect(logged.some((line) => line.includes('"purge"'))).toBe(true)
    expect(logged.some((line) => line.includes('"request failed"'))).toBe(true)
    // Everything the capture server received, from every test file so far: this one's included.
    const envelopes = await (await fetch(`${inject('sentryOrigin')}/envelopes`)).text()
    expect(envelopes).toContain(failing)
    for (const text of [...texts, ...logged, envelopes])
      for (const secret of secrets) expect(text).not.toContain(secret)
  })
})
