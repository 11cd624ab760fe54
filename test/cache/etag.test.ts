import { describe, expect, it } from 'vitest'
import { ifNoneMatchHits } from '../../src/cache/etag'

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
