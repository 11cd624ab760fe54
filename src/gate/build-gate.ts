import { ENTITY_KINDS, GateFilter } from './gate-filter'
import type { EntityKind } from './gate-filter'

const PAGE = 10_000

const ENTITY_TABLES: Record<EntityKind, string> = { provider: 'providers', job: 'jobs' }

/**
 * Builds the gate from D1, reading in keyset pages so the catalog never sits in memory.
 * Run by the cron trigger (src/worker.ts) and by `npm run gate` (scripts/build-gate.ts).
 */
export async function buildGate(d1: D1Database, now = new Date()): Promise<GateFilter> {
  const count = async (table: string) =>
    (await d1.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0
  const watermark = async (table: string, column = 'id') =>
    (await d1.prepare(`SELECT MAX(${column}) AS n FROM ${table}`).first<{ n: number | null }>())
      ?.n ?? 0

  // Read before the cities: a city added while the build runs is past it, and looked up later.
  const cityAdditions = await watermark('city_additions', 'seq')
  // A provider catalog sync removed keeps its place: its profile answers 410, not 404 (docs/sync.md).
  const removed = await d1
    .prepare(
      "SELECT substr(key, 10) AS id FROM sync_versions WHERE key > 'provider:' AND key < 'provider;' AND removed = 1",
    )
    .raw<[string]>()
  let items = (await count('cities')) + removed.length
  const watermarks = {} as Record<EntityKind, number>
  for (const kind of ENTITY_KINDS) {
    items += await count(ENTITY_TABLES[kind])
    watermarks[kind] = await watermark(ENTITY_TABLES[kind])
  }
  const gate = GateFilter.create(items, {
    version: 1,
    builtAt: now.toISOString(),
    watermarks,
    cityAdditions,
  })

  for (let after = ''; ;) {
    const results = await d1
      .prepare('SELECT slug FROM cities WHERE slug > ? ORDER BY slug LIMIT ?')
      .bind(after, PAGE)
      .raw<[string]>()
    for (const [slug] of results) gate.add('city', slug)
    if (results.length < PAGE) break
    after = results[results.length - 1]?.[0] ?? after
  }
  for (const [id] of removed) gate.add('provider', Number(id))
  for (const kind of ENTITY_KINDS) {
    for (let after = 0; ;) {
      const results = await d1
        .prepare(
          `SELECT id FROM ${ENTITY_TABLES[kind]} WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
        )
        .bind(after, watermarks[kind], PAGE)
        .raw<[number]>()
      for (const [id] of results) gate.add(kind, id)
      if (results.length < PAGE) break
      after = results[results.length - 1]?.[0] ?? after
    }
  }
  return gate
}
