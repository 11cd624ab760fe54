// Spellings of one URL (RFC 3986 section 6.2.2.2): a percent-encoded unreserved character names
// the same page as the character itself, so each such spelling redirects to the plain one, and
// the cache only ever keys and stores what the router matched.
import { describe, expect, it } from 'vitest'
import { settled } from '../support/fetch-page'

describe('percent-encoded unreserved characters', () => {
  it.each([
    ['/%62abysitters/atlanta-ga?sort=newest', '/babysitters/atlanta-ga?sort=newest'],
    ['/%4Eannies/austin-tx', '/nannies/austin-tx'],
    ['/p/%6D%61ria-%31%32', '/p/maria-12'],
    ['/explore/d/%72obotics%2D%5F%7E%2E', '/explore/d/robotics-_~.'],
    ['/babysitters/atlanta%2Dga/', '/babysitters/atlanta-ga'],
  ])('redirect %s to %s', async (path, location) => {
    const { res } = await settled(path)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(location)
  })

  it('keep the escapes of other characters, which no page has in its path', async () => {
    const { res } = await settled('/babysitters/atlanta%2fga')
    expect(res.status).toBe(404)
  })

  it('never let one query of an encoded path answer another', async () => {
    const sorted = await settled('/%62abysitters/atlanta-ga?sort=newest')
    const near = await settled('/%62abysitters/atlanta-ga?distance=5')
    expect([sorted.res.status, near.res.status]).toEqual([301, 301])
    expect(near.res.headers.get('location')).toBe('/babysitters/atlanta-ga?distance=5')
    expect(near.body).toBe('')
    const followed = await settled('/babysitters/atlanta-ga?distance=5')
    expect([followed.res.status, followed.cache]).toEqual([200, 'MISS'])
  })

  it('never pin the 404 of a page past the last onto the plain path', async () => {
    const past = await settled('/%6eannies/austin-tx?page=99')
    expect(past.res.headers.get('location')).toBe('/nannies/austin-tx?page=99')
    expect((await settled('/nannies/austin-tx?page=99')).res.status).toBe(404)
    expect((await settled('/%6eannies/austin-tx')).res.headers.get('location')).toBe(
      '/nannies/austin-tx',
    )
    const plain = await settled('/nannies/austin-tx')
    expect(plain.res.status).toBe(200)
  })
})
