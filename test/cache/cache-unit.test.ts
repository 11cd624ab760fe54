import { describe, expect, it } from 'vitest'
import { cacheKey } from '../../src/cache/cache-key'
import type { EntryMeta } from '../../src/cache/edge-cache'
import { assess } from '../../src/cache/edge-cache'
import { forgetHotPages, recallPage, rememberPage } from '../../src/cache/hot-pages'
import { purgePath, tokenName } from '../../src/cache/purge'
import { BUILD } from '../../src/views/assets'

const ORIGIN = 'https://www.care.example'
const key = (path: string, params = ['distance', 'sort', 'page', 'availability']) =>
  cacheKey(ORIGIN, new URL(ORIGIN + path), params, 'v1')

describe('cacheKey', () => {
  it('is the same for any order, repetition, list form or default of the parameters that matter', () => {
    const keys = [
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday',
      '/babysitters/atlanta-ga?availability=tuesday&availability=monday&distance=5&distance=5',
      '/babysitters/atlanta-ga?utm_source=x&gclid=y&fbclid=z&distance=5&availability=MONDAY,tuesday&page=1&sort=recommended',
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday&colour=red',
    ].map((path) => key(path))
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).toBe(
      `${ORIGIN}/babysitters/atlanta-ga?availability=monday&availability=tuesday&distance=5&__variant=v1&__build=${BUILD}`,
    )
  })

  it('differs by the filters, the page and the variant', () => {
    expect(key('/babysitters/atlanta-ga?distance=5')).not.toBe(
      key('/babysitters/atlanta-ga?distance=10'),
    )
    expect(key('/babysitters/atlanta-ga?page=2')).not.toBe(key('/babysitters/atlanta-ga'))
    expect(cacheKey(ORIGIN, new URL(`${ORIGIN}/nannies`), [], 'a')).not.toBe(
      cacheKey(ORIGIN, new URL(`${ORIGIN}/nannies`), [], 'b'),
    )
  })

  it('names the build, so a deploy never serves a page linking assets it no longer has', () => {
    expect(BUILD).toMatch(/^[0-9a-f]{30}$/)
  })

  it('is always on the public origin, whatever host the request came to', () => {
    expect(cacheKey(ORIGIN, new URL('https://evil.example/nannies'), [], 'v')).toBe(
      `${ORIGIN}/nannies?__variant=v&__build=${BUILD}`,
    )
  })
})

describe('assess', () => {
  const meta: EntryMeta = {
    storedAt: 1000,
    freshUntil: 2000,
    staleUntil: 3000,
    keepUntil: 4000,
    tags: [],
    etag: 'W/"x"',
    cacheControl: 'public',
    complete: true,
  }
  it.each([
    [1500, 0, 'fresh'],
    [2500, 0, 'stale'],
    [3500, 0, 'expired'],
    [4000, 0, 'gone'],
    [1500, 1200, 'purged'],
    [2500, 1200, 'purged'],
    [1500, 900, 'fresh'],
  ])('at %i with the newest purge at %i a stored page is %s', (now, purge, state) => {
    expect(assess(meta, now, purge)).toBe(state)
  })
})

describe('purge', () => {
  it('names the token presented, among named tokens, and nothing for a wrong one', async () => {
    const configured = 'alice=first-secret, ci=second-secret'
    expect(await tokenName('Bearer second-secret', configured)).toBe('ci')
    expect(await tokenName('Bearer first-secret', configured)).toBe('alice')
    expect(await tokenName('Bearer first-secreT', configured)).toBeNull()
    expect(await tokenName('Bearer ', configured)).toBeNull()
    expect(await tokenName(undefined, configured)).toBeNull()
    expect(await tokenName('Bearer lonely', 'lonely')).toBe('ops')
    expect(await tokenName('Bearer anything', undefined)).toBeNull()
  })

  it('takes only URLs of this site', () => {
    expect(purgePath('/Babysitters/Atlanta-GA/', ORIGIN)).toBe('/babysitters/atlanta-ga')
    expect(purgePath(`${ORIGIN}/nannies?page=2`, ORIGIN)).toBe('/nannies')
    expect(purgePath('https://evil.example/nannies', ORIGIN)).toBeNull()
    expect(purgePath('//evil.example/nannies', ORIGIN)).toBeNull()
  })
})

describe('hot pages', () => {
  it('keep the most recently used pages within their byte budget', async () => {
    forgetHotPages()
    const page = (kb: number) => new ArrayBuffer(kb * 1024)
    const stored = new Response(null, { status: 200, headers: { 'x-test': '1' } })
    rememberPage('a', page(500), stored)
    for (let i = 0; i < 32; i++) rememberPage(`p${i}`, page(500), stored)
    // 16 MiB hold 32 pages of 500 KiB: the first one in is out, recalling one keeps it in.
    expect(recallPage('a')).toBeUndefined()
    expect(recallPage('p0')?.status).toBe(200)
    rememberPage('q', page(500), stored)
    expect(recallPage('p0')).toBeDefined()
    expect(recallPage('p1')).toBeUndefined()
    // Too large to hold, and the same body every time it is recalled.
    rememberPage('big', page(600), stored)
    expect(recallPage('big')).toBeUndefined()
    const first = recallPage('q')
    expect((await first?.arrayBuffer())?.byteLength).toBe(500 * 1024)
    expect((await recallPage('q')?.arrayBuffer())?.byteLength).toBe(500 * 1024)
    expect(first?.headers.get('x-test')).toBe('1')
    forgetHotPages()
  })
})
