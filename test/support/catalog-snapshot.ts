// The test catalog's snapshot, as a test file gets it: each part fetched from the server the
// run's set-up serves it on (test/node/catalog-snapshot.ts), on 127.0.0.1.
import { inject } from 'vitest'
import type { CatalogSnapshot } from './snapshot-worker'

/** One part of the snapshot: the gate, control's and the shards' rows on each layout, the migrated schema. */
export async function snapshotPart<K extends keyof CatalogSnapshot>(
  part: K,
): Promise<CatalogSnapshot[K]> {
  const res = await fetch(`${inject('catalogSnapshotOrigin')}/${part}`)
  if (!res.ok) throw new Error(`the test catalog's snapshot has no part ${part}`)
  return res.json<CatalogSnapshot[K]>()
}
