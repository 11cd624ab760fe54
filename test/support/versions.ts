/**
 * Each entity's version as a catalog knows it, of `sync_versions` rows given as JSON texts from
 * every database: the newest row of each key and, at the same version, the row of the shard
 * holding the entity (a review's other shards record its removal from them at that version:
 * docs/scale.md, "How sync routes a batch"). Sorted.
 */
export function newestVersions(rows: readonly string[]): string[] {
  type Version = { key: string; version: number; removed: number }
  const newest = new Map<string, Version>()
  for (const row of rows.map((r) => JSON.parse(r) as Version)) {
    const kept = newest.get(row.key)
    if (
      !kept ||
      row.version > kept.version ||
      (row.version === kept.version && row.removed < kept.removed)
    )
      newest.set(row.key, row)
  }
  return [...newest.values()].map((row) => JSON.stringify(row)).sort()
}
