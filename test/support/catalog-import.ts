// The test catalog loaded the way a marketplace's comes in: its change messages through the
// import's own code (`importLines`: each line validated, applied in batches), the ZIP codes, then
// the import's end, into control and the shards of the layout (shardedTarget, finishImport:
// docs/scale.md). Run once a run, in workerd, to make the snapshot every test file restores
// (test/node/catalog-snapshot.ts), and again by test/data/catalog-snapshot.test.ts, which checks
// that both give the same rows.
import { finishImport } from '../../scripts/import/finish'
import type { ApplyTarget } from '../../scripts/import/import-lines'
import { importLines } from '../../scripts/import/import-lines'
import { shardedTarget } from '../../scripts/import/sharded'
import type { Databases } from '../../src/data/databases'

/** What the test catalog is made of (the workers project's `provide` in vitest.config.ts). */
export interface CatalogInput {
  /** NDJSON change messages, a line each. */
  lines: string[]
  /** INSERT statements of the ZIP codes near the catalog's places. */
  zipStatements: string[]
  /** The moment the import ends at (ISO). */
  now: string
}

async function importAll(target: ApplyTarget, lines: string[]): Promise<void> {
  await importLines({
    target,
    lines: lines.map((text, i) => ({ line: i + 1, text })),
    file: null,
    reject: (line, reason) => {
      throw new Error(`the test catalog's line ${line} was rejected: ${reason}`)
    },
  })
}

const runAll = (db: D1Database, statements: string[]) =>
  db.batch(statements.map((sql) => db.prepare(sql)))

/** The catalog across control and the shards, each database's own end derived, the gate in `gate`. */
export async function importShardedCatalog(
  databases: Databases,
  gate: KVNamespace,
  input: CatalogInput,
) {
  await importAll(shardedTarget(databases), input.lines)
  // ZIP codes are not change messages: control's table, from the statements the seed runs.
  await runAll(databases.control, input.zipStatements)
  await finishImport(databases, gate, new Date(input.now))
}
