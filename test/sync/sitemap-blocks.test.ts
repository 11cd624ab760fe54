import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/data/db'
import { controlStatsStatements } from '../../src/data/refresh-stats'
import type { BlockTable } from '../../src/data/sitemap-rows'
import { CONTROL_BLOCK_TABLES, countBlocks, findBlock } from '../../src/data/sitemap-rows'
import { Timing } from '../../src/observability/timing'
import type { CatalogMessage } from '../../src/sync/messages'
import { applyRouted } from '../../src/sync/routed-apply'
import { cityId, purge } from '../support/builders'
import { fromShards } from '../support/databases'
import { ORIGIN, page } from '../support/fetch-page'
import { shardedCatalog } from '../support/sharded-catalog'
import { aMessage } from './examples'

// The blocks sitemap files are cut from (migrations/control/0001_control.sql) stay right as sync
// batches add and remove rows anywhere in id order: each block counts the rows of its id range,
// none passes its cap, and the files list every row once. Caps here are a few rows, so blocks
// split and empty within a handful of changes.

// The blocks are control's, cut from its cities and its directory of the shards' providers and
// jobs; the batches are applied across control and the shards.
const databases = await shardedCatalog()
const db = databases.control
const reads = openDb(db, new Timing())
const TABLES = CONTROL_BLOCK_TABLES
const NOW = new Date('2026-01-01T00:00:00Z')
const CITY = await cityId('atlanta-ga')
// Newer than every version of the test catalog's own messages: a change to a row it loaded
// applies (an older one would be dropped by the version guard, and no block would ever shrink).
let version =
  Math.max(
    0,
    ...(await fromShards<{ v: number | null }>('SELECT MAX(version) AS v FROM sync_versions')).map(
      (r) => r.v ?? 0,
    ),
  ) + 1

/** The blocks packed again from control's cities and directory, as the import's end does. */
async function refreshStats(control: D1Database, now: Date): Promise<void> {
  await control.batch(controlStatsStatements(control, now))
}

/** `batch` applied across control and the shards. */
async function applyChanges(_: D1Database, batch: CatalogMessage[], { now }: { now: Date }) {
  await applyRouted(databases, batch, { now })
}

async function setCap(table: BlockTable, size: number): Promise<void> {
  await db.prepare('UPDATE sitemap_caps SET size = ? WHERE source = ?').bind(size, table).run()
}

async function ids(table: BlockTable): Promise<number[]> {
  const { results } = await db
    .prepare(`SELECT id FROM ${TABLES[table]} ORDER BY id`)
    .all<{ id: number }>()
  return results.map((r) => r.id)
}

/** The rows of the n-th block, read as its sitemap file reads them. */
async function blockRows(table: BlockTable, n: number): Promise<number[]> {
  const parts = await findBlock(reads, table, n, 1_000_000, TABLES)
  if (!parts.length) return []
  const { results } = await db
    .prepare(`SELECT id FROM ${TABLES[table]} WHERE id BETWEEN ? AND ? ORDER BY id`)
    .bind(parts[0]?.first ?? 0, parts.at(-1)?.last ?? 0)
    .all<{ id: number }>()
  return results.map((r) => r.id)
}

/**
 * Each block's size the rows of its id range (up to the next block's first id), none over `cap`,
 * none empty but the first; and the first, the last and any block between read as such.
 */
async function expectBlocksRight(table: BlockTable, cap: number): Promise<void> {
  const { results: blocks } = await db
    .prepare(
      `SELECT size, (SELECT COUNT(*) FROM ${TABLES[table]}
                      WHERE id >= first_id AND (next IS NULL OR id < next)) AS rows
         FROM (SELECT first_id, size, LEAD(first_id) OVER (ORDER BY first_id) AS next
                 FROM sitemap_blocks WHERE source = ?)`,
    )
    .bind(table)
    .all<{ size: number; rows: number }>()
  expect(blocks.map((b) => b.size)).toEqual(blocks.map((b) => b.rows))
  for (const b of blocks) expect(b.size).toBeLessThanOrEqual(cap)
  for (const b of blocks.slice(1)) expect(b.size).toBeGreaterThan(0)
  const listed = blocks.filter((b) => b.size > 0)
  expect((await countBlocks(reads))[table]).toBe(listed.length)
  const all = await ids(table)
  const starts = [0]
  for (const b of listed) starts.push((starts.at(-1) ?? 0) + b.size)
  for (const n of new Set([1, Math.ceil(listed.length / 2), listed.length]))
    expect(await blockRows(table, n)).toEqual(all.slice(starts[n - 1], starts[n]))
  expect(await blockRows(table, listed.length + 1)).toEqual([])
}

const providerUpserted = (id: number) =>
  aMessage('provider.upserted', (m) => {
    m.id = id
    m.version = version++
    m.entity.cityId = CITY
  })
const providerRemoved = (id: number) =>
  aMessage('provider.removed', (m) => Object.assign(m, { id, version: version++ }))
const jobUpserted = (id: number) =>
  aMessage('job.upserted', (m) => {
    m.id = id
    m.version = version++
    m.entity.cityId = CITY
    m.entity.validThrough = '2099-01-01T00:00:00Z'
  })

/** The providers' block sizes, in id order. */
async function sizes(): Promise<number[]> {
  const { results } = await db
    .prepare("SELECT size FROM sitemap_blocks WHERE source = 'providers' ORDER BY first_id")
    .all<{ size: number }>()
  return results.map((b) => b.size)
}

describe('sitemap blocks', () => {
  it('shrink a middle block when a row of the catalog in it is removed', async () => {
    await setCap('providers', 3)
    await refreshStats(db, NOW)
    const before = await sizes()
    const middle = Math.floor(before.length / 2)
    const { results } = await db
      .prepare(
        "SELECT first_id AS id FROM sitemap_blocks WHERE source = 'providers' ORDER BY first_id",
      )
      .all<{ id: number }>()
    const inside = results[middle]?.id ?? 0
    expect(before[middle]).toBe(3)
    await applyChanges(db, [providerRemoved(inside)], { now: NOW })
    const after = await sizes()
    expect(after).toEqual(before.map((size, i) => (i === middle ? size - 1 : size)))
    await expectBlocksRight('providers', 3)
  }, 60_000)

  it('count the rows of their id range, none over its cap, after any sync batches', async () => {
    const CAP = 3
    await setCap('providers', CAP)
    await setCap('jobs', CAP)
    await refreshStats(db, NOW)
    await expectBlocksRight('providers', CAP)
    await expectBlocksRight('jobs', CAP)
    const existing = await ids('providers')
    // Ids below, among and far above the catalog's, and the catalog's own.
    const id = fc.oneof(
      fc.constantFrom(...existing),
      fc.integer({ min: 1, max: 3_000_000 }),
      fc.constant(9_000_000_000_000),
    )
    const change = fc.oneof(
      id.map((i) => providerUpserted(i)),
      id.map((i) => providerRemoved(i)),
      id.map((i) => jobUpserted(i)),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(change, { maxLength: 12 }), { maxLength: 4 }),
        async (batches) => {
          for (const batch of batches) await applyChanges(db, batch, { now: NOW })
          await expectBlocksRight('providers', CAP)
          await expectBlocksRight('jobs', CAP)
        },
      ),
      { numRuns: 40 },
    )
    // The cron and the import pack the blocks again: every one full but the last.
    await refreshStats(db, NOW)
    await expectBlocksRight('providers', CAP)
    const { results } = await db
      .prepare("SELECT size FROM sitemap_blocks WHERE source = 'providers' ORDER BY first_id")
      .all<{ size: number }>()
    expect(results.slice(0, -1).every((b) => b.size === CAP)).toBe(true)
  }, 600_000)

  it('are the files of the index, listing every profile once', async () => {
    const cap = Math.ceil((await ids('providers')).length / 4)
    await setCap('providers', cap)
    await refreshStats(db, NOW)
    const FAR = 9_100_000_000_000
    // Enough new providers in the last block to split it, and one far above the rest.
    const last = (await ids('providers')).at(-1) ?? 0
    const added = Array.from({ length: cap }, (_, i) => last + 1 + i)
    await applyChanges(db, [...added, FAR].map(providerUpserted), { now: NOW })
    await expectBlocksRight('providers', cap)
    await purge({ tags: ['page:sitemap'] })
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '')
    const files = locs((await page('/sitemap.xml')).html).filter((f) => f.includes('/providers-'))
    expect(files.length).toBe((await countBlocks(reads)).providers)
    const profiles: string[] = []
    for (const file of files) {
      const urls = locs((await page(file.replace(ORIGIN, ''))).html)
      expect(urls.length).toBeLessThanOrEqual(cap)
      profiles.push(...urls)
    }
    // Each profile once, in id order across the files.
    const listed = profiles.map((p) => Number(/-(\d+)$/.exec(p)?.[1]))
    expect(listed).toEqual(await ids('providers'))
    for (const id of [...added, FAR]) expect(listed).toContain(id)
  }, 600_000)
})
