// The routing table from a place to its D1 database (docs/scale.md): the environment's layout
// says which shard, the shard's binding is the database. Nothing here reads SQL or a database.
import type { Layout } from '../catalog/placement'
import type { Db } from './db'
import type { BlockTables } from './sitemap-rows'
import { layoutNamed, shardBindingName, shardOfCity, shardsOfState } from '../catalog/placement'

/** What of the environment the routing needs: its layout's name, control, and the shards' bindings. */
export type DatabaseEnv = Pick<Env, 'SHARD_LAYOUT' | 'CONTROL'>

/** The D1 binding `name` of `env`, if it has one: shards are bound by number, so looked up by name. */
function bindingOf(env: DatabaseEnv, name: string): D1Database | null {
  const value: unknown = Reflect.get(env, name)
  const isD1 = typeof value === 'object' && value !== null && 'prepare' in value && 'batch' in value
  return isD1 ? (value as D1Database) : null
}

/** The environment's databases: control, and each shard of its layout. */
export interface Databases {
  layout: Layout
  control: D1Database
  /** Every shard, by number. */
  shards: readonly D1Database[]
  /** The shard of the city `slug`, null for a slug of no state the product lists. */
  ofCity(slug: string): { shard: number; db: D1Database } | null
  /** The shards holding the cities of `state` (lower-case code): one unless the state is split. */
  ofState(state: string): { shard: number; db: D1Database }[]
}

/** The environment is not set up as its layout needs: a deploy's mistake, said plainly. */
export class LayoutError extends Error {}

/** The databases of `env`; throws LayoutError for an unknown layout or a shard with no binding. */
export function databasesOf(env: DatabaseEnv): Databases {
  const layout = layoutNamed(env.SHARD_LAYOUT)
  if (!layout) throw new LayoutError(`SHARD_LAYOUT names no layout: "${env.SHARD_LAYOUT}"`)
  const shards = Array.from({ length: layout.shards }, (_, n) => {
    const db = bindingOf(env, shardBindingName(n))
    if (!db)
      throw new LayoutError(
        `layout ${env.SHARD_LAYOUT} has shard ${n}, but no ${shardBindingName(n)} binding`,
      )
    return db
  })
  const at = (shard: number) => ({ shard, db: shards[shard] as D1Database })
  return {
    layout,
    control: env.CONTROL,
    shards,
    ofCity(slug) {
      const shard = shardOfCity(layout, slug)
      return shard === null ? null : at(shard)
    },
    ofState: (state) => shardsOfState(layout, state).map(at),
  }
}

/**
 * The reads of the shard holding an entity's rows, and the state of its city (from control's
 * directory); null lets the reads find the state through the entity instead.
 */
export interface EntityReads {
  db: Db
  stateCode: string | null
}

/** A request's reads of the catalog's shards (`c.get('shards')`); control's are `c.get('db')`. */
export interface ShardReads {
  /**
   * The reads of provider `id`'s shard, by control's directory (a round trip before the
   * shard's); 'removed' for a provider the sync removed; null for an id no provider has.
   */
  ofProvider(id: number): Promise<EntityReads | 'removed' | null>
  /** The reads of job `id`'s shard, the same; null for none. */
  ofJob(id: number): Promise<EntityReads | null>
  /** Where control's reads find every provider and job by id (sitemaps): its directory. */
  entityTables: BlockTables
  /** The reads of the city `slug`'s shard. */
  ofCity(slug: string): Db
  /** The reads of each shard holding `state`'s (lower-case code) cities, to be sent together. */
  ofState(state: string): Db[]
}
