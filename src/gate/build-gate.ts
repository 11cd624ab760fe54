import { ENTITY_KEY, ENTITY_KINDS, GateFilter } from './gate-filter'
import type { EntityKind } from './gate-filter'

const PAGE = 10_000

/**
 * Room a build leaves for additions, over its cities: the cron takes new cities into the stored
 * filter (`extendGate`) until they fill it, and only then builds it again from every city. A
 * tenth more cities is years of a marketplace's growth into new places.
 */
export const GATE_ROOM = 0.1

/**
 * The tables of control's directory whose highest ids are the gate's watermarks. Whether an id
 * exists, or was removed (410), is the directory's word, read by the page itself
 * (docs/scale.md, "The gate for ids").
 */
const ENTITY_TABLES: Readonly<Record<EntityKind, string>> = {
  provider: 'provider_directory',
  job: 'job_directory',
}

/**
 * Builds the gate from control: every city slug, read in keyset pages, and each directory
 * table's highest id (one index read each), so its cost grows with the cities, not the
 * providers. Run by the cron trigger (src/worker.ts) and at the end of an import.
 */
export async function buildGate(d1: D1Database, now = new Date()): Promise<GateFilter> {
  const watermark = async (table: string, column = 'id') =>
    (await d1.prepare(`SELECT MAX(${column}) AS n FROM ${table}`).first<{ n: number | null }>())
      ?.n ?? 0

  // Read before the cities: a city added while the build runs is past it, and looked up later.
  const cityAdditions = await watermark('city_additions', 'seq')
  const items =
    (await d1.prepare('SELECT COUNT(*) AS n FROM cities').first<{ n: number }>())?.n ?? 0
  const watermarks = {} as Record<EntityKind, number>
  for (const kind of ENTITY_KINDS) watermarks[kind] = await watermark(ENTITY_TABLES[kind])
  const gate = GateFilter.create(
    items,
    { version: 1, holds: 'cities', builtAt: now.toISOString(), watermarks, cityAdditions },
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
  return gate
}

/**
 * The stored gate with the additions logged since it was built or last extended
 * (migrations/control/0001_control.sql), read as a key range of the log: work that grows with what
 * was added, not with the catalog. Null when there is no stored gate, an older one without a
 * place in the log or room or that held ids too, or the additions would pass its capacity: then
 * build it again.
 */
export async function extendGate(
  d1: D1Database,
  gate: GateFilter | null,
): Promise<GateFilter | null> {
  const after = gate?.meta.cityAdditions
  const capacity = gate?.meta.capacity
  if (!gate || after === undefined || capacity === undefined || gate.meta.holds !== 'cities')
    return null
  const added: string[] = []
  let slugs = 0
  let last = after
  for (;;) {
    const results = await d1
      .prepare('SELECT seq, slug FROM city_additions WHERE seq > ? ORDER BY seq LIMIT ?')
      .bind(last, PAGE)
      .raw<[number, string]>()
    for (const [seq, slug] of results) {
      added.push(slug)
      // Only city slugs take room: an entity's key raises a watermark.
      if (!ENTITY_KEY.test(slug)) slugs++
      last = seq
    }
    if (gate.meta.items + slugs > capacity) return null
    if (results.length < PAGE) break
  }
  gate.extend(added, last)
  return gate
}
