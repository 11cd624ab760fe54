// Control and every shard at once (docs/scale.md), for a test that watches or fails the catalog's
// storage wherever a page or the sync reads it.
import { env } from 'cloudflare:workers'
import { shardBindingName } from '../../src/catalog/placement'
import { databasesOf } from '../../src/data/databases'
import type { RowsTouched } from '../../src/sync/apply'
import type { CatalogMessage } from '../../src/sync/messages'
import { applyRouted } from '../../src/sync/routed-apply'
import type { Faults } from './with-faults'
import { withStatementFaults } from './with-faults'

/** Bindings replacing CONTROL and every SHARD_nn of the layout with `wrap` of each. */
export function everyBinding(wrap: (db: D1Database, name: string) => D1Database): Partial<Env> {
  const { control, shards } = databasesOf(env)
  return {
    CONTROL: wrap(control, 'CONTROL'),
    ...Object.fromEntries(
      shards.map((db, n) => [shardBindingName(n), wrap(db, shardBindingName(n))]),
    ),
  }
}

/** `withStatementFaults` on control and every shard: the statements `pick` names, wherever sent. */
export function statementFaultsEverywhere(
  pick: (sql: string) => Faults<D1PreparedStatement> | undefined,
): Partial<Env> {
  return everyBinding((db) => withStatementFaults(db, pick))
}

/** Every shard of the layout, by number. */
export function shards(): readonly D1Database[] {
  return databasesOf(env).shards
}

/** `sql`'s rows on every shard, one shard's after another's (a whole-catalog read). */
export async function fromShards<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  const each = await Promise.all(
    shards().map(
      async (db) =>
        (
          await db
            .prepare(sql)
            .bind(...params)
            .all<T>()
        ).results,
    ),
  )
  return each.flat()
}

/**
 * `messages` applied across control and the shards as the consumer does: what it returns to
 * retry (a listing before its provider in the batch's order, a failed part) delivered again, up
 * to five times; throws, naming each message still held back and each database's reason, if any
 * is. Resolves to the rows D1 read and wrote.
 */
export async function applyAcross(
  messages: readonly CatalogMessage[],
  options: { now?: Date } = {},
): Promise<RowsTouched> {
  const rows = { rowsRead: 0, rowsWritten: 0 }
  let left: readonly CatalogMessage[] = messages
  let reasons: string[] = []
  for (let round = 0; round < 5 && left.length; round++) {
    const outcome = await applyRouted(databasesOf(env), left, options)
    rows.rowsRead += outcome.rows.rowsRead
    rows.rowsWritten += outcome.rows.rowsWritten
    left = outcome.retry
    reasons = outcome.failures.map((f) => f.error)
  }
  if (left.length)
    throw new Error(
      `not applied: ${[left.map((m) => `${m.kind} ${m.id}`).join(', '), ...reasons].join('; ')}`,
    )
  return rows
}

/** The tables control has (read once a file). */
let controlTables: Promise<Set<string>> | null = null

/**
 * `sql`'s rows as the catalog holds them: on control when it has every table the query names
 * (its copies of the cities' stats among them), else on every shard, one shard's after another's.
 */
export async function catalogRows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  const control = databasesOf(env).control
  controlTables ??= control
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .raw<[string]>()
    .then((rows) => new Set(rows.map(([name]) => name)))
  const tables = [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)/gi)].map((m) => m[1] ?? '')
  const known = await controlTables
  if (tables.every((t) => known.has(t)))
    return (
      await control
        .prepare(sql)
        .bind(...params)
        .all<T>()
    ).results
  return fromShards<T>(sql, ...params)
}

/** The first of `catalogRows`, or null. */
export async function catalogRow<T>(sql: string, ...params: unknown[]): Promise<T | null> {
  return (await catalogRows<T>(sql, ...params))[0] ?? null
}
