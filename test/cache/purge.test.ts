import { describe, expect, it } from 'vitest'
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

const ORIGIN = 'https://www.care.example'

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
