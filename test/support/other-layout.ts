// The test catalog on the other layout (test/support/snapshot-worker.ts: `one` beside `two`, `two`
// beside `one`), imported by the same code from the same messages: what a test holds the run's
// layout to, so a result that depends on how the cities are placed shows as a difference.
import { env } from 'cloudflare:workers'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'
import { snapshotPart } from './catalog-snapshot'
import type { DatabaseDump } from './snapshot'
import { restoreDatabase } from './snapshot'

/** The bindings of `dumps` restored from them, in parallel. */
async function restoreAll(dumps: Record<string, DatabaseDump>): Promise<void> {
  await Promise.all(
    Object.entries(dumps).map(([binding, dump]) =>
      restoreDatabase(Reflect.get(env, binding) as D1Database, dump),
    ),
  )
}

/**
 * `read` run on the catalog as the other layout holds it, with that layout's environment and
 * databases; every database then holds the run's catalog again (as the set-up restored it).
 */
export async function onOtherLayout<T>(
  read: (bindings: Env, databases: Databases) => Promise<T>,
): Promise<T> {
  const [other, run] = await Promise.all([snapshotPart('other'), snapshotPart('sharded')])
  await restoreAll(other.databases)
  try {
    const bindings = { ...env, SHARD_LAYOUT: other.layout }
    return await read(bindings, databasesOf(bindings))
  } finally {
    await restoreAll(run)
  }
}

/** The rows of `table` in `dump` (0 when it has none). */
export function dumpedRows(dump: DatabaseDump | undefined, table: string): number {
  const pages = dump?.tables.find((t) => t.table === table)?.pages ?? []
  return pages.reduce((sum, page) => sum + (JSON.parse(page) as unknown[]).length, 0)
}
