import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { findActivityKeyword } from '../../src/catalog/activities'
import { findActivities } from '../../src/data/activities'
import { findNationalCounts } from '../../src/data/home'
import { findProviderListing, findTopProviders } from '../../src/data/provider-listing'
import { countCityProviders } from '../../src/data/providers'
import { cityMixSql, controlRollupSql } from '../../src/data/rollups'
import {
  BLOCK_TABLES,
  CONTROL_BLOCK_TABLES,
  countBlocks,
  findBlock,
} from '../../src/data/sitemap-rows'
import { findNationalStats, findStateLeaders, findStateStats } from '../../src/data/service-stats'
import { parseActivityQuery } from '../../src/queries/activity-query'
import { DEFAULT_QUERY } from '../../src/queries/listing-query'
import type { QueryPlan } from '../support/page-reads'
import {
  ATLANTA,
  explainingDb,
  explainPageReads,
  isScan,
  listingQuery,
} from '../support/page-reads'

// Each read on the database holding its tables: a shard's (Atlanta's), else control's.
const CATALOG = [env.SHARD_00, env.CONTROL]

describe('query plans', () => {
  it('never scan a whole table or index on any read a page makes', async () => {
    // Nearby cities walk a latitude band; every other read is an equality range of an index.
    const plans = await explainPageReads(CATALOG)
    expect(plans.length).toBe(51)
    for (const { sql, plan } of plans)
      for (const step of plan) expect(isScan(step), sql).toBe(false)
  })
  it('read a directory page in index order, with no sort step', async () => {
    const plans: QueryPlan[] = []
    for (const sort of ['recommended', 'newest'] as const) {
      await findProviderListing(explainingDb(CATALOG, plans), 'babysitters', ATLANTA, {
        ...DEFAULT_QUERY,
        sort,
      })
      await findProviderListing(explainingDb(CATALOG, plans), 'babysitters', ATLANTA, {
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
  it('read what grows with the catalog from a rollup or a bounded index range', async () => {
    // Each read here once counted or summed every row of a city, a state or a keyword; at the
    // 1M-provider scale those ranges are 7–40 times longer (docs/performance.md).
    const plans: QueryPlan[] = []
    const db = explainingDb(CATALOG, plans)
    const stem = findActivityKeyword('stem')
    if (!stem) throw new Error('no stem')
    const plain = parseActivityQuery(new URLSearchParams(), stem.category)
    if (!plain.ok) throw new Error(plain.error)
    await findActivities(db, stem, plain.query, '2026-11-22')
    await countCityProviders(db, ATLANTA.id, ['babysitters', 'tutors'])
    await findNationalStats(db, 'babysitters')
    await findStateStats(db, 'babysitters', 'GA')
    await findStateLeaders(db, 'GA')
    await findNationalCounts(db, ['babysitters', 'errands'])
    await findTopProviders([db], 'babysitters', 'GA')
    const [activityCount, , mixes, national, state, leaders, counts, top] = plans.map((p) =>
      p.plan.join(' | '),
    )
    expect(activityCount).toBe('SEARCH activity_ends USING PRIMARY KEY (keyword=? AND end_date>?)')
    expect(mixes).toBe('SEARCH city_service_mixes USING PRIMARY KEY (city_id=?)')
    expect(national).toBe('SEARCH service_state_stats USING PRIMARY KEY (service=?)')
    expect(counts).toBe('SEARCH service_state_stats USING PRIMARY KEY (service=?)')
    expect(state).toBe('SEARCH service_state_stats USING PRIMARY KEY (service=? AND state_code=?)')
    expect(leaders).toBe(
      'SEARCH service_state_stats USING PRIMARY KEY (service=? AND state_code=?)',
    )
    // A state's top providers: each of its largest cities gives its own best few by the index,
    // one rowid each, and only those are sorted.
    expect(top).toContain(
      'CORRELATED LIST SUBQUERY 1 | SEARCH x USING COVERING INDEX provider_services_recommended (service=? AND city_id=?)',
    )
    expect(top).toContain('SEARCH ps USING INTEGER PRIMARY KEY (rowid=?)')
  })

  it('find a sitemap file from its blocks, never by counting or skipping catalog rows', async () => {
    // The index counts block rows; a file reads the rows of its blocks' id range alone: control's
    // cities and its directory of the shards' providers and jobs.
    const plans: QueryPlan[] = []
    const db = explainingDb(env.CONTROL, plans)
    await countBlocks(db)
    for (const source of BLOCK_TABLES) await findBlock(db, source, 3, 5_000, CONTROL_BLOCK_TABLES)
    const [count, ...blocks] = plans.map((p) => p.plan)
    expect(count?.join(' | ')).not.toMatch(/cities|provider|job/)
    for (const [i, source] of BLOCK_TABLES.entries()) {
      const table = CONTROL_BLOCK_TABLES[source]
      const plan = blocks[i] ?? []
      expect(plan).toContain(`SEARCH ${table} USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)`)
      expect(plan.join(' | ')).not.toContain(`SCAN ${table}`)
    }
  })

  it('derive what a sync batch touched from the touched rows alone', async () => {
    // The queue's consumer recomputes the rollups of each batch: none may walk a whole table.
    // The cities' mixes on their shard, the rollups of many cities on control (rollupSql's two).
    const each = [
      ...cityMixSql(true).map((sql) => [env.SHARD_00, sql] as const),
      ...controlRollupSql({ touched: true }).map((sql) => [env.CONTROL, sql] as const),
    ]
    for (const [db, sql] of each) {
      const { results } = await db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{
        detail: string
      }>()
      for (const { detail } of results) expect(detail, sql).not.toMatch(/^SCAN (?!\(subquery)/)
    }
  })
})
