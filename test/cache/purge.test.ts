import { describe, expect, it } from 'vitest'
import {
  failureKey,
  namedTokens,
  carriedTag,
  purgePath,
  purgeRequestSchema,
  tokenName,
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

  it('names a page by the spelling the request normaliser gives it, and tags as pages carry them', () => {
    expect(purgePath('/%74utors/austin-tx', ORIGIN)).toBe('/tutors/austin-tx')
    expect(purgePath(`${ORIGIN}/%54UTORS//Austin-TX/`, ORIGIN)).toBe('/tutors/austin-tx')
    expect(carriedTag('state:GA')).toBe('state:ga')
    expect(carriedTag('city:Atlanta-GA')).toBe('city:atlanta-ga')
    expect(carriedTag('url:/%74utors/Austin-TX/')).toBe('url:/tutors/austin-tx')
    expect(carriedTag('page:seoSearchListing')).toBe('page:seoSearchListing')
  })

  it('takes only tags of the kinds pages carry, and says why it refuses one', () => {
    expect(purgeRequestSchema.safeParse({ tags: ['provider:8', 'city:atlanta-ga'] }).success).toBe(
      true,
    )
    const refused = purgeRequestSchema.safeParse({ tags: ['color:blue'] })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toContain('"color:blue" is not a tag')
    expect(purgeRequestSchema.safeParse({ tags: ['provider:'] }).success).toBe(false)
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

describe('the key failed authentications are counted under', () => {
  it('is the address for IPv4, mapped IPv4 included', () => {
    expect(failureKey('192.0.2.1')).toBe('ipv4:192.0.2.1')
    expect(failureKey('::ffff:192.0.2.1')).toBe('ipv4:192.0.2.1')
  })

  it('is the /64 for IPv6, however the address is written', () => {
    const key = 'ipv6:2001:db8:0:1::/64'
    expect(failureKey('2001:db8:0:1::1')).toBe(key)
    expect(failureKey('2001:0DB8:0000:0001:ffff:ffff:ffff:ffff')).toBe(key)
    expect(failureKey('2001:db8::1:0:0:0:7')).toBe(key)
    expect(failureKey('2001:db8:0:1:2:3:192.0.2.1')).toBe(key)
    expect(failureKey('fe80::1%eth0')).toBe('ipv6:fe80:0:0:0::/64')
    expect(failureKey('2001:db8:0:2::1')).not.toBe(key)
  })

  it('is one bucket for callers without an address, and another for a malformed one', () => {
    expect(failureKey(undefined)).toBe('no-address')
    expect(failureKey(' ')).toBe('no-address')
    expect(failureKey('1::2::3')).toBe('unparsed-address')
    expect(failureKey('2001:db8:zz::1')).toBe('unparsed-address')
  })
})
