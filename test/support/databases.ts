// Control and every shard at once (docs/scale.md), for a test that watches or fails the catalog's
// storage wherever a page or the sync reads it.
import { env } from 'cloudflare:workers'
import { shardBindingName } from '../../src/catalog/placement'
import { databasesOf } from '../../src/data/databases'
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

/** `messages` applied across control and the shards as the consumer does; throws if any waits. */
export async function applyAcross(
  messages: readonly CatalogMessage[],
  options: { now?: Date } = {},
): Promise<void> {
  const outcome = await applyRouted(databasesOf(env), messages, options)
  if (outcome.retry.length)
    throw new Error(`not applied: ${outcome.failures.map((f) => f.error).join('; ')}`)
}
