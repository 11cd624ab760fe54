import { describe, expect, it } from 'vitest'
import { cacheKey } from '../../src/cache/cache-key'
import type { EntryMeta } from '../../src/cache/entry-meta'
import { assess } from '../../src/cache/entry-meta'
import type { HotPage } from '../../src/cache/hot-pages'
import { forgetHotPages, recallPage, rememberPage } from '../../src/cache/hot-pages'
import { ifNoneMatchHits } from '../../src/cache/etag'
import {
  FAILURE_WINDOW_MS,
  isLockedOut,
  MAX_FAILURES,
  MAX_TRACKED_ADDRESSES,
  namedTokens,
  purgePath,
  recordFailure,
  tokenName,
  trackedAddresses,
} from '../../src/cache/purge'
import type { Policy } from '../../src/cache/policies'
import { POLICIES } from '../../src/cache/policies'
import { BUILD } from '../../src/views/assets'

const ORIGIN = 'https://www.care.example'
const everything = () => true
/** The key of a URL, as the edge cache computes it for `policy`. */
const keyOf = (url: string, policy: Policy = POLICIES.directory, variant = 'v1') => {
  const { pathname, searchParams } = new URL(ORIGIN + url)
  return cacheKey(ORIGIN, pathname, policy.query(pathname, searchParams, everything), variant)
}

describe('cacheKey', () => {
  it('is the same for any order, repetition, list form or default of the parameters that matter', () => {
    const keys = [
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday',
      '/babysitters/atlanta-ga?availability=tuesday&availability=monday&distance=5&distance=5',
      '/babysitters/atlanta-ga?utm_source=x&gclid=y&fbclid=z&distance=5&availability=MONDAY,tuesday&page=1&sort=recommended',
      '/babysitters/atlanta-ga?distance=5&availability=monday,tuesday&colour=red',
    ].map((path) => keyOf(path))
    expect(new Set(keys).size).toBe(1)
    expect(keys[0]).toBe(
      `${ORIGIN}/babysitters/atlanta-ga?availability=monday,tuesday&distance=5&__variant=v1&__build=${BUILD}`,
    )
  })

  it('leaves out a parameter the page does not read for its service, whatever its value', () => {
    // Tutors offer subjects, not services; housekeeping offers services.
    const plain = keyOf('/tutors/atlanta-ga')
    for (const value of ['a1', 'a2', crypto.randomUUID(), 'deep-cleaning'])
      expect(keyOf(`/tutors/atlanta-ga?services=${value}`)).toBe(plain)
    expect(keyOf('/housekeeping/atlanta-ga?services=deep-cleaning')).not.toBe(
      keyOf('/housekeeping/atlanta-ga'),
    )
    // Job listings of a service without age groups ignore ages; camps only while offered.
    const jobs = '/housekeeping-jobs/atlanta-ga'
    expect(keyOf(`${jobs}?ages=${crypto.randomUUID()}`, POLICIES.jobs)).toBe(
      keyOf(jobs, POLICIES.jobs),
    )
    const { pathname, searchParams } = new URL(`${ORIGIN}/explore/d/stem?onlyCampActivities=x1`)
    const noCamps = POLICIES.activities.query(pathname, searchParams, () => false)
    expect(noCamps).toBe('')
    // Pages that read no query key on none of it.
    expect(keyOf('/p/maria-g-12?anything=1', POLICIES.profile)).toBe(
      keyOf('/p/maria-g-12', POLICIES.profile),
    )
  })

  it('keys a query the page refuses apart from every page it renders', () => {
    expect(keyOf('/tutors/atlanta-ga?distance=7')).toBe(
      `${ORIGIN}/tutors/atlanta-ga?__query=invalid&__variant=v1&__build=${BUILD}`,
    )
    expect(keyOf('/tutors/atlanta-ga?distance=7')).toBe(keyOf('/tutors/atlanta-ga?page=0'))
  })

  it('differs by the filters, the page and the variant', () => {
    expect(keyOf('/babysitters/atlanta-ga?distance=5')).not.toBe(
      keyOf('/babysitters/atlanta-ga?distance=10'),
    )
    expect(keyOf('/babysitters/atlanta-ga?page=2')).not.toBe(keyOf('/babysitters/atlanta-ga'))
    expect(keyOf('/nannies', POLICIES.hub, 'a')).not.toBe(keyOf('/nannies', POLICIES.hub, 'b'))
  })

  it('names the build, so a deploy never serves a page linking assets it no longer has', () => {
    expect(BUILD).toMatch(/^[0-9a-f]{30}$/)
  })

  it('is always on the public origin, whatever host the request came to', () => {
    const { pathname } = new URL('https://evil.example/nannies')
    expect(cacheKey(ORIGIN, pathname, '', 'v')).toBe(
      `${ORIGIN}/nannies?__variant=v&__build=${BUILD}`,
    )
  })
})

const meta: EntryMeta = {
  storedAt: 1000,
  freshUntil: 2000,
  staleUntil: 3000,
  keepUntil: 4000,
  tags: [],
  etag: 'W/"x"',
  nonce: 'n',
  cacheControl: 'public',
  complete: true,
}

describe('assess', () => {
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
  it('keep the most recently used pages within their byte budget', () => {
    forgetHotPages()
    const page = (kb: number): HotPage => ({
      status: 200,
      headers: [['x-test', '1']],
      meta: { ...meta, etag: `W/"${kb}"` },
      parts: [new Uint8Array(kb * 1024)],
      bytes: kb * 1024,
    })
    rememberPage('a', page(500))
    for (let i = 0; i < 32; i++) rememberPage(`p${i}`, page(500))
    // 16 MiB hold 32 pages of 500 KiB: the first one in is out, recalling one keeps it in.
    expect(recallPage('a')).toBeUndefined()
    expect(recallPage('p0')?.status).toBe(200)
    rememberPage('q', page(500))
    expect(recallPage('p0')).toBeDefined()
    expect(recallPage('p1')).toBeUndefined()
    // Too large to hold.
    rememberPage('big', page(600))
    expect(recallPage('big')).toBeUndefined()
    expect(recallPage('q')?.headers).toEqual([['x-test', '1']])
    forgetHotPages()
  })
})

describe('PURGE_TOKEN', () => {
  it('takes a bare token with base64 padding whole, named ops', async () => {
    expect(namedTokens('abc==')).toEqual([['ops', 'abc==']])
    expect(await tokenName('Bearer abc==', 'abc==')).toBe('ops')
    expect(await tokenName('Bearer abc', 'abc==')).toBeNull()
  })

  it('splits a named token at its first "=" only, so a padded token is never truncated', async () => {
    expect(namedTokens('ci=abc==, alice=x/y+z=')).toEqual([
      ['ci', 'abc=='],
      ['alice', 'x/y+z='],
    ])
    expect(await tokenName('Bearer abc==', 'ci=abc==')).toBe('ci')
    expect(await tokenName('Bearer abc', 'ci=abc==')).toBeNull()
    expect(await tokenName('Bearer x/y+z=', 'ci=abc==, alice=x/y+z=')).toBe('alice')
  })

  it('names only a lowercase name; anything else is part of a bare token', () => {
    expect(namedTokens('CI=secret')).toEqual([['ops', 'CI=secret']])
    expect(namedTokens('9ci=secret')).toEqual([['ops', '9ci=secret']])
    expect(namedTokens('ops=ab=cd')).toEqual([['ops', 'ab=cd']])
    expect(namedTokens(' , ')).toEqual([])
  })
})

describe('failed authentications, per isolate', () => {
  const T0 = 1_000_000_000

  it('lock an address out after too many in a window, and let it in after the window', () => {
    for (let i = 0; i < MAX_FAILURES; i++) recordFailure('192.0.2.1', T0 + i)
    expect(isLockedOut('192.0.2.1', T0 + MAX_FAILURES)).toBe(true)
    expect(isLockedOut('192.0.2.2', T0 + MAX_FAILURES)).toBe(false)
    expect(isLockedOut('192.0.2.1', T0 + FAILURE_WINDOW_MS + 1)).toBe(false)
  })

  it('are forgotten once their window has passed, so the isolate holds only recent ones', () => {
    const t = T0 + 10 * FAILURE_WINDOW_MS
    for (let i = 0; i < 500; i++) recordFailure(`198.51.100.${i}`, t)
    expect(trackedAddresses()).toBe(500)
    recordFailure('203.0.113.7', t + FAILURE_WINDOW_MS + 1)
    expect(trackedAddresses()).toBe(1)
  })

  it('are held for a bounded number of addresses, the oldest forgotten first', () => {
    const t = T0 + 100 * FAILURE_WINDOW_MS
    for (let i = 0; i <= MAX_TRACKED_ADDRESSES; i++) recordFailure(`a${i}`, t)
    expect(trackedAddresses()).toBe(MAX_TRACKED_ADDRESSES)
    for (let i = 0; i < MAX_FAILURES; i++) recordFailure('a1', t)
    expect(isLockedOut('a1', t)).toBe(true)
  })
})

const ETAG = 'W/"0badcafe.m1x2y3"'

describe('If-None-Match', () => {
  it.each([
    ['the same weak tag', 'W/"0badcafe.m1x2y3"'],
    ['the same tag marked strong (weak comparison)', '"0badcafe.m1x2y3"'],
    ['a list holding it', '"older.1", W/"0badcafe.m1x2y3", "other"'],
    ['a list without spaces', 'W/"a",W/"0badcafe.m1x2y3"'],
    ['a star', '*'],
    ['a star with spaces', ' * '],
  ])('matches %s', (_, header) => {
    expect(ifNoneMatchHits(header, ETAG)).toBe(true)
  })

  it.each([
    ['no header', undefined],
    ['another tag', 'W/"0badcafe.m1x2y4"'],
    ['a list without it', '"a", W/"b"'],
    ['the tag unquoted', '0badcafe.m1x2y3'],
    ['a prefix of it', 'W/"0badcafe"'],
    ['an empty header', ''],
  ])('does not match %s', (_, header) => {
    expect(ifNoneMatchHits(header, ETAG)).toBe(false)
  })

  it('reads a quoted tag whole even when it holds a comma', () => {
    expect(ifNoneMatchHits('"a,b"', '"a,b"')).toBe(true)
    expect(ifNoneMatchHits('"a,b"', '"b"')).toBe(false)
  })
})
