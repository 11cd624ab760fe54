import { ENTITY_KINDS, GateFilter } from './gate-filter'
import type { EntityKind } from './gate-filter'

const PAGE = 10_000

/**
 * Room a build leaves for additions, over its items: the cron takes additions into the stored
 * filter (`extendGate`) until they fill it, and only then builds it again from the whole catalog.
 * A tenth of the catalog is weeks of a marketplace's new providers and jobs.
 */
export const GATE_ROOM = 0.1

/** Where a database holds what the gate is built of: its entities' tables and removed providers. */
export interface GateSources {
  entities: Readonly<Record<EntityKind, string>>
  /** SQL: the ids of the providers catalog sync removed, as text. */
  removed: string
}

/** The one database holding the whole catalog: removals are its sync_versions' tombstones. */
export const CATALOG_GATE: GateSources = {
  entities: { provider: 'providers', job: 'jobs' },
  removed:
    "SELECT substr(key, 10) AS id FROM sync_versions WHERE key > 'provider:' AND key < 'provider;' AND removed = 1",
}

/** Control (docs/scale.md): its directory of the shards' providers and jobs, and its tombstones. */
export const CONTROL_GATE: GateSources = {
  entities: { provider: 'provider_directory', job: 'job_directory' },
  removed:
    "SELECT substr(key, 10) AS id FROM directory_tombstones WHERE key > 'provider:' AND key < 'provider;'",
}

/**
 * Builds the gate from D1, reading in keyset pages so the catalog never sits in memory.
 * Run by the cron trigger (src/worker.ts) and by `npm run gate` (scripts/build-gate.ts).
 */
export async function buildGate(
  d1: D1Database,
  now = new Date(),
  { entities: ENTITY_TABLES, removed: REMOVED }: GateSources = CATALOG_GATE,
): Promise<GateFilter> {
  const count = async (table: string) =>
    (await d1.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0
  const watermark = async (table: string, column = 'id') =>
    (await d1.prepare(`SELECT MAX(${column}) AS n FROM ${table}`).first<{ n: number | null }>())
      ?.n ?? 0

  // Read before the cities: a city added while the build runs is past it, and looked up later.
  const cityAdditions = await watermark('city_additions', 'seq')
  // A provider catalog sync removed keeps its place: its profile answers 410, not 404 (docs/sync.md).
  const removed = await d1.prepare(REMOVED).raw<[string]>()
  let items = (await count('cities')) + removed.length
  const watermarks = {} as Record<EntityKind, number>
  for (const kind of ENTITY_KINDS) {
    items += await count(ENTITY_TABLES[kind])
    watermarks[kind] = await watermark(ENTITY_TABLES[kind])
  }
  const gate = GateFilter.create(
    items,
    { version: 1, builtAt: now.toISOString(), watermarks, cityAdditions },
    Math.ceil(items * (1 + GATE_ROOM)) + 1_000,
  )

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

/**
 * The stored gate with the additions logged since it was built or last extended
 * (migrations/control/0001_control.sql), read as a key range of the log: work that grows with what
 * was added, not with the catalog. Null when there is no stored gate, an older one without a
 * place in the log or room, or the additions would pass its capacity: then build it again.
 */
export async function extendGate(
  d1: D1Database,
  gate: GateFilter | null,
): Promise<GateFilter | null> {
  const after = gate?.meta.cityAdditions
  const capacity = gate?.meta.capacity
  if (!gate || after === undefined || capacity === undefined) return null
  const added: string[] = []
  let last = after
  for (;;) {
    const results = await d1
      .prepare('SELECT seq, slug FROM city_additions WHERE seq > ? ORDER BY seq LIMIT ?')
      .bind(last, PAGE)
      .raw<[number, string]>()
    for (const [seq, slug] of results) {
      added.push(slug)
      last = seq
    }
    if (gate.meta.items + added.length > capacity) return null
    if (results.length < PAGE) break
  }
  gate.extend(added, last)
  return gate
}
