import { describe, expect, it } from 'vitest'
import { assess } from '../../src/cache/entry-meta'
import { anEntryMeta } from '../support/builders'

const meta = anEntryMeta({ storedAt: 1000, freshUntil: 2000, staleUntil: 3000, keepUntil: 4000 })

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
