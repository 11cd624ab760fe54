import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { assets } from '../../src/views/assets'
import { accessToken, anotherKey, PURGER, VIEWER } from '../support/access'
import { fetchPage, ORIGIN, settled } from '../support/fetch-page'

const as = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'cf-access-jwt-assertion': token, ...init.headers },
})

/** The CSRF token of the person's console pages, read from the purge preview's form. */
async function csrfOf(token: string): Promise<string> {
  const html = await (
    await fetchPage('/__ops/purges/preview?by=url&value=/nannies', as(token))
  ).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!csrf) throw new Error('no CSRF token in the preview')
  return csrf
}

function post(token: string, fields: Record<string, string>, origin = ORIGIN) {
  return fetchPage(
    '/__ops/purges',
    as(token, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    }),
  )
}

async function counts() {
  const row = await env.CONTROL.prepare(
    'SELECT (SELECT COUNT(*) FROM purges) AS purges, (SELECT COUNT(*) FROM purge_log) AS audit',
  ).first<{ purges: number; audit: number }>()
  return row
}

describe('the ops console behind Cloudflare Access', () => {
  it('refuses a missing, expired, wrongly signed or wrong-audience token, never stored or indexed', async () => {
    const now = Math.floor(Date.now() / 1000)
    const tokens = {
      missing: null,
      expired: await accessToken(PURGER, { claims: { iat: now - 7200, exp: now - 60 } }),
      forged: await accessToken(PURGER, { key: await anotherKey() }),
      audience: await accessToken(PURGER, { claims: { aud: ['another-application'] } }),
      issuer: await accessToken(PURGER, { claims: { iss: 'https://evil.cloudflareaccess.com' } }),
      noExpiry: await accessToken(PURGER, { claims: { exp: undefined } }),
      garbage: 'not.a.token',
    }
    for (const [name, token] of Object.entries(tokens)) {
      const res = await fetchPage('/__ops', token ? as(token) : {})
      expect(res.status, name).toBe(401)
      expect(res.headers.get('cache-control'), name).toBe('no-store')
      expect(res.headers.get('x-robots-tag'), name).toBe('noindex, nofollow')
      await res.text()
    }
  })

  it('shows a valid token’s person the console, with its own strict policy', async () => {
    const res = await fetchPage('/__ops', as(await accessToken(VIEWER)))
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('viewer@care.example (viewer)')
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>')
    // Its icon named, or the browser asks for /favicon.ico and logs the 404.
    expect(html).toContain(
      `<link rel="icon" href="${assets['favicon.svg']}" type="image/svg+xml"/>`,
    )
    // One script: the islands', by the response's nonce, which the policy allows and no other.
    const scripts = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])
    const nonce = /script-src 'nonce-([^']+)'/.exec(
      res.headers.get('content-security-policy') ?? '',
    )
    expect(scripts).toEqual([
      `<script type="module" src="${assets['ops.js']}" nonce="${nonce?.[1]}">`,
    ])
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toMatch(/script-src[^;]*(unsafe|'self'|https?:)/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('reads the token from the Access cookie as from the header', async () => {
    const token = await accessToken(VIEWER)
    const res = await fetchPage('/__ops', { headers: { cookie: `CF_Authorization=${token}` } })
    expect(res.status).toBe(200)
    await res.text()
  })

  it('refuses a viewer’s purge, a post without its CSRF token or from another site; nothing changes', async () => {
    const before = await counts()
    const viewer = await accessToken(VIEWER)
    const purger = await accessToken(PURGER)
    const viewerPost = await post(viewer, { by: 'url', value: '/nannies', csrf: 'x' })
    expect(viewerPost.status).toBe(403)
    const preview = await fetchPage('/__ops/purges/preview?by=url&value=/nannies', as(viewer))
    expect(preview.status).toBe(403)
    const noCsrf = await post(purger, { by: 'url', value: '/nannies' })
    expect(noCsrf.status).toBe(403)
    const viewersCsrf = await post(purger, { by: 'url', value: '/nannies', csrf: 'stale' })
    expect(viewersCsrf.status).toBe(403)
    const csrf = await csrfOf(purger)
    const crossSite = await post(
      purger,
      { by: 'url', value: '/nannies', csrf },
      'https://evil.example',
    )
    expect(crossSite.status).toBe(403)
    const valid = await post(purger, { by: 'url', value: '/nannies', csrf })
    expect(valid.status).toBe(303)
    const responses = [viewerPost, preview, noCsrf, viewersCsrf, crossSite, valid]
    await Promise.all(responses.map((r) => r.text()))
    const after = await counts()
    // Only the valid purge went through: one tag, one audit row.
    expect(after?.purges).toBe((before?.purges ?? 0) + 1)
    expect(after?.audit).toBe((before?.audit ?? 0) + 1)
  })
})

describe('purging from the console', () => {
  it('previews a purge: its tags, the pages they reach, an estimate', async () => {
    const purger = await accessToken(PURGER)
    const res = await fetchPage(`/__ops/purges/preview?by=city&value=Atlanta-GA`, as(purger))
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('<code>city:atlanta-ga</code>')
    expect(html).toContain('city hub')
    expect(html).toMatch(/up to \d+/)
    expect(html).toContain('name="csrf"')
  })

  it('names a provider by its profile URL pasted whole', async () => {
    const purger = await accessToken(PURGER)
    const html = await (
      await fetchPage(
        `/__ops/purges/preview?by=provider&value=${encodeURIComponent(`${ORIGIN}/p/maria-g-8?ref=x`)}`,
        as(purger),
      )
    ).text()
    expect(html).toContain('<code>provider:8</code>')
  })

  it('answers bad input with the form and the reason next to the field', async () => {
    const purger = await accessToken(PURGER)
    const cases: [string, string, string][] = [
      ['tag', 'color:blue', 'is not a tag'],
      ['url', 'https://evil.example/nannies', 'not a URL of this site'],
      ['url', '   ', 'name something to purge'],
      ['provider', 'https://www.care.example/nannies', 'neither a provider id nor the URL'],
      ['page', 'everything', 'not a page type'],
    ]
    for (const [by, value, reason] of cases) {
      const res = await fetchPage(
        `/__ops/purges/preview?${new URLSearchParams({ by, value }).toString()}`,
        as(purger),
      )
      const html = await res.text()
      expect(res.status, value).toBe(400)
      expect(html, value).toMatch(new RegExp(`id="purge-value-error">[^<]*${reason}`))
      expect(html, value).toContain('aria-invalid="true"')
    }
  })

  it('previews as JSON for the form’s island: the same tags, or the field’s reason', async () => {
    const purger = await accessToken(PURGER)
    const live = (by: string, value: string, token = purger) =>
      fetchPage(
        `/__ops/live/purge-preview?${new URLSearchParams({ by, value }).toString()}`,
        as(token),
      )
    const city = await live('city', 'Atlanta-GA')
    expect(city.status).toBe(200)
    expect(city.headers.get('content-type')).toBe('application/json')
    expect(city.headers.get('cache-control')).toBe('no-store')
    const { tags } = await city.json<{ tags: { tag: string; pages: string; estimate: number }[] }>()
    expect(tags.map((t) => t.tag)).toEqual(['city:atlanta-ga'])
    expect(tags[0]?.pages).toContain('city hub')
    expect(tags[0]?.estimate).toBeGreaterThan(0)
    const refused = await live('url', 'https://evil.example/nannies')
    expect(refused.status).toBe(400)
    const { error } = await refused.json<{ error: string }>()
    expect(error).toContain('not a URL of this site')
    const viewer = await live('city', 'atlanta-ga', await accessToken(VIEWER))
    expect(viewer.status).toBe(403)
    await viewer.text()
    const nobody = await fetchPage('/__ops/live/purge-preview?by=city&value=atlanta-ga')
    expect(nobody.status).toBe(401)
    await nobody.text()
  })

  it('purges a stored page, records who, and shows it re-rendered', async () => {
    const purger = await accessToken(PURGER)
    const path = '/babysitters/atlanta-ga'
    await settled(path)
    expect((await settled(path)).cache).toBe('HIT')
    const before = await (await fetchPage(`/__ops/check?url=${path}`, as(purger))).text()
    expect(before).toMatch(/<code>HIT<\/code>/)

    const res = await post(purger, { by: 'url', value: ORIGIN + path, csrf: await csrfOf(purger) })
    expect(res.status).toBe(303)
    const result = res.headers.get('location') ?? ''
    expect(result).toMatch(/^\/__ops\/purges\/\d+$/)
    const shown = await (await fetchPage(result, as(purger))).text()
    expect(shown).toContain(`Purged 1 tag`)
    expect(shown).toContain(PURGER)
    const audit = await env.CONTROL.prepare(
      'SELECT token_name, urls, outcome FROM purge_log WHERE id = ?',
    )
      .bind(Number(result.split('/').pop()))
      .first()
    expect(audit).toEqual({ token_name: PURGER, urls: JSON.stringify([path]), outcome: 'purged' })

    const check = /href="(\/__ops\/check\?[^"]+)"/.exec(shown)?.[1]?.replace(/&amp;/g, '&')
    expect(check).toBe(`/__ops/check?url=${encodeURIComponent(path)}`)
    const after = await (await fetchPage(check ?? '', as(purger))).text()
    expect(after).not.toMatch(/<code>HIT<\/code>/)
    expect(after).toMatch(/Answered in<\/dt><dd>\d+ ms/)
  })

  it('lists recent purges, filtered by person and tag', async () => {
    const purger = await accessToken(PURGER)
    await post(purger, { by: 'tag', value: 'segment:special-needs', csrf: await csrfOf(purger) })
    const mine = await (
      await fetchPage(`/__ops/purges?who=${PURGER}&tag=segment:special-needs`, as(purger))
    ).text()
    expect(mine).toContain('<code>segment:special-needs</code>')
    const others = await (
      await fetchPage('/__ops/purges?who=nobody@care.example', as(purger))
    ).text()
    expect(others).toContain('No purges match.')
  })
})
