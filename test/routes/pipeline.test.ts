import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  canonicalOf,
  fetchPage,
  GOOGLEBOT,
  ORIGIN,
  page,
  settled,
  statementsOnceWarm,
} from '../support/fetch-page'
import { shards } from '../support/databases'

describe('normalise', () => {
  it('answers 301 with the lowercase, slash-less path and keeps the query', async () => {
    const res = await fetchPage('/Babysitters/Atlanta-GA/?page=2')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/babysitters/atlanta-ga?page=2')
  })

  it.each([
    ['//evil.example/', '/evil.example'],
    ['/\\evil.example/', '/evil.example'],
    ['///evil.example//x/', '/evil.example/x'],
    ['/%2F%2Fevil.example/', '/%2f%2fevil.example'],
  ])('never redirects %s off the site', async (path, location) => {
    const res = await fetchPage(path)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(location)
    expect(new URL(res.headers.get('location') ?? '', ORIGIN).origin).toBe(ORIGIN)
  })
})

describe('methods', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'answers %s with 405 and Allow',
    async (method) => {
      const res = await fetchPage('/babysitters/atlanta-ga', { method })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('GET, HEAD')
      expect(await res.text()).toContain('405: Method Not Allowed')
    },
  )

  it('answers HEAD like GET, without a body', async () => {
    const [get, head] = await Promise.all([
      fetchPage('/babysitters/atlanta-ga'),
      fetchPage('/babysitters/atlanta-ga', { method: 'HEAD' }),
    ])
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
    expect(await head.text()).toBe('')
    await get.body?.cancel()
  })
})

describe('bad input is a 400 page, never a 500', () => {
  it.each([
    ['invalid percent-encoding', '/babysitters/%E0%A4%A'],
    ['invalid UTF-8', '/babysitters/%FF'],
    ['a control character', '/babysitters/atlanta%00-ga'],
    ['a control character in the query', '/babysitters/atlanta-ga?sort=%0Anewest'],
    ['a path over 2,048 bytes', `/babysitters/${'a'.repeat(2050)}`],
    ['a query over 4,096 bytes', `/babysitters/atlanta-ga?utm_source=${'a'.repeat(4100)}`],
    ['a malformed filter', '/babysitters/atlanta-ga?distance=abc'],
  ])('for %s', async (_, path) => {
    const { res, html } = await page(path)
    expect(res.status).toBe(400)
    expect(html).toContain('400: Bad Request')
    expect(html).toContain('<meta name="robots" content="noindex"/>')
  })
})

describe('not found', () => {
  it.each(['/nope/atlanta-ga', '/babysitters/atlanta-ga/extra', '/babysittersx', '/index.html'])(
    'answers %s with the 404 page',
    async (path) => {
      const { res, html } = await page(path)
      expect(res.status).toBe(404)
      expect(html).toContain('404: This page could not be found')
    },
  )

  it('rejects an unknown city through the gate with no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/babysitters/atlantis-zz')
    expect([res.status, statements]).toEqual([404, []])
  })

  it('renders the page of unknown URLs once per page type', async () => {
    const pages = await Promise.all(
      ['/babysitters/atlantis-zz', '/babysitters/nowhere-zz'].map(
        async (p) => (await page(p)).html,
      ),
    )
    expect(pages[1]).toBe(pages[0])
    expect(pages[0]).not.toContain('atlantis')
  })
})

describe('document', () => {
  it('streams the whole <head> in the first chunk', async () => {
    const res = await fetchPage('/babysitters/atlanta-ga')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    expect(first.startsWith('<!DOCTYPE html>')).toBe(true)
    const head = first.slice(0, first.indexOf('</head>'))
    expect(first).toContain('</head>')
    for (const part of [
      '<title>',
      'name="description"',
      'rel="canonical"',
      'name="robots"',
      'og:title',
      'application/ld+json',
    ]) {
      expect(head).toContain(part)
    }
  })

  it('gives crawlers the complete document, with no streamed placeholders', async () => {
    const { html } = await page('/babysitters/atlanta-ga', { headers: { 'user-agent': GOOGLEBOT } })
    expect(html).not.toContain('<template id="B:')
    expect(html).not.toContain('Loading nearby cities')
    expect(html).toContain('More care in Atlanta, GA')
  })

  it('links a content-hashed stylesheet that Workers Static Assets serves as immutable', async () => {
    const { html } = await page('/babysitters/atlanta-ga')
    const href = /<link rel="stylesheet" href="(\/assets\/styles\.[0-9a-f]{10}\.css)"/.exec(
      html,
    )?.[1]
    expect(href).toBeDefined()
    // Workers Static Assets answers /assets/* before the worker runs; the binding is that layer.
    const css = await env.ASSETS.fetch(ORIGIN + (href ?? ''))
    expect(css.status).toBe(200)
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await css.text()).toContain('.card')
  })
})

/** Another host the worker answers on (its workers.dev name, say): not PUBLIC_ORIGIN. */
const ELSEWHERE = 'https://care-landing.example.workers.dev'

describe('a request that came to another host', () => {
  it('builds canonical and Open Graph URLs from PUBLIC_ORIGIN, never from its URL or Host', async () => {
    const { res, body } = await settled(`${ELSEWHERE}/babysitters/atlanta-ga`)
    expect(res.status).toBe(200)
    expect(canonicalOf(body)).toBe(`${env.PUBLIC_ORIGIN}/babysitters/atlanta-ga`)
    expect(body).toContain(
      `<meta property="og:url" content="${env.PUBLIC_ORIGIN}/babysitters/atlanta-ga"/>`,
    )
    expect(body).not.toContain('workers.dev')
  })

  it('lists sitemap URLs and names the sitemap index on PUBLIC_ORIGIN', async () => {
    for (const path of ['/sitemap.xml', '/sitemaps/pages.xml']) {
      const { res, body } = await settled(ELSEWHERE + path)
      const locs = [...body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '')
      expect([path, res.status, locs.length > 1]).toEqual([path, 200, true])
      expect(locs.filter((loc) => !loc.startsWith(`${env.PUBLIC_ORIGIN}/`))).toEqual([])
    }
    const robots = await settled(`${ELSEWHERE}/robots.txt`)
    expect(robots.body).toContain(`Sitemap: ${env.PUBLIC_ORIGIN}/sitemap.xml`)
    expect(robots.body).not.toContain('workers.dev')
  })

  it('redirects to a path, which names no host, so never the one it came to', async () => {
    const provider = await shards()[0]
      ?.prepare('SELECT id, name_slug FROM providers LIMIT 1')
      .first<{
        id: number
        name_slug: string
      }>()
    if (!provider) throw new Error('no provider')
    for (const [path, location] of [
      ['/Babysitters/Atlanta-GA/?page=2', '/babysitters/atlanta-ga?page=2'],
      [`/p/a-former-name-${provider.id}`, `/p/${provider.name_slug}-${provider.id}`],
    ]) {
      const { res } = await settled(ELSEWHERE + path)
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 301, location])
    }
  })
})
