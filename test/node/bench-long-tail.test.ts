// The bench's long-tail rows ask for their pages in turn across every connection, so no page is
// asked for twice before every other one has been (scripts/bench/long-tail.ts).
import { describe, expect, it } from 'vitest'
import { cycling } from '../../scripts/bench/long-tail'

describe('cycling', () => {
  const request = { method: 'GET' as const, path: '/first' }

  it('gives each request the next page, whichever connection asks, from where it was told', () => {
    const { setupRequest } = cycling(['/a', '/b', '/c'], 1)
    // autocannon calls one shared setupRequest for every connection's next request.
    const paths = Array.from({ length: 5 }, () => setupRequest(request).path)
    expect(paths).toEqual(['/b', '/c', '/a', '/b', '/c'])
  })
})
