import { describe, expect, it } from 'vitest'
import { namedTokens, tokenName } from '../../src/cache/purge'

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
