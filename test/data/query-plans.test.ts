import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { findProviderListing } from '../../src/data/provider-listing'
import { DEFAULT_QUERY } from '../../src/queries/listing-query'
import type { QueryPlan } from '../support/page-reads'
import {
  ATLANTA,
  explainingDb,
  explainPageReads,
  isScan,
  listingQuery,
} from '../support/page-reads'

describe('query plans', () => {
  it('never scan a whole table or index on any read a page makes', async () => {
    // Nearby cities walk a latitude band; every other read is an equality range of an index.
    const plans = await explainPageReads(env.DB)
    expect(plans.length).toBe(52)
    for (const { sql, plan } of plans)
      for (const step of plan) expect(isScan(step), sql).toBe(false)
  })
  it('read a directory page in index order, with no sort step', async () => {
    const plans: QueryPlan[] = []
    for (const sort of ['recommended', 'newest'] as const) {
      await findProviderListing(explainingDb(env.DB, plans), 'babysitters', ATLANTA, {
        ...DEFAULT_QUERY,
        sort,
      })
      await findProviderListing(explainingDb(env.DB, plans), 'babysitters', ATLANTA, {
        ...listingQuery('distance=5&rate=15-20&badges=premium'),
        sort,
      })
    }
    const pages = plans.filter((p) => p.sql.includes('LIMIT'))
    expect(pages.map((p) => p.plan.join(' | '))).toEqual([
      expect.stringContaining(
        'USING INDEX provider_services_recommended (service=? AND city_id=?)',
      ),
      expect.stringContaining(
        'USING INDEX provider_services_recommended (service=? AND city_id=?)',
      ),
      expect.stringContaining('USING INDEX provider_services_newest (service=? AND city_id=?)'),
      expect.stringContaining('USING INDEX provider_services_newest (service=? AND city_id=?)'),
    ])
    for (const { plan } of pages) expect(plan.join(' | ')).not.toContain('TEMP B-TREE')
  })
})
