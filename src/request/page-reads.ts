// A request's reads by database (docs/scale.md, "How each page reads"): control's for what is
// national or keyed by id, a city's shard for what lists its people, a state's shards in
// parallel. Each database a request touches gets one D1 session, opened at its first read and
// chosen by its own rule; databases it never reads cost nothing.
import type { Context } from 'hono'
import type { KnownPurges } from '../cache/generations'
import { TAG } from '../cache/tags'
import type { EntityReads, ShardReads } from '../data/databases'
import { databasesOf } from '../data/databases'
import type { D1Reads, Db } from '../data/db'
import { openDb, StorageError } from '../data/db'
import type { Placed } from '../data/directory'
import { findJobPlace, findProviderPlace } from '../data/directory'
import { CONTROL_BLOCK_TABLES } from '../data/sitemap-rows'
import type { AppEnv } from '../env'
import { pageOfDataPath } from '../urls/data-prefix'
import type { ReadSession } from './read-session'
import { readSession } from './read-session'

/** Where a page's reads go: the D1 bindings of each role (the same binding may play several). */
export interface ReadSources {
  /** What is national or keyed by id, and where the purges (and so their bookmarks) are written. */
  control: D1Database
  /** The database holding the city `slug`'s catalog: its shard. */
  ofCity(slug: string): D1Database
  /** The databases holding `state`'s (lower-case code) cities: one unless the state is split. */
  ofState(state: string): D1Database[]
  /** Shard `n`, as control's directory names it for a provider or job. */
  shard(n: number): D1Database
}

/** How a request finds its sources in its environment. */
export type SourcesOf = (env: Env) => ReadSources

/**
 * The sources of the environment's layout (src/data/databases.ts): control, and the shard of
 * each place. A city slug of no state the product lists has no shard; such a page has already
 * answered 404 by then (the gate, the kept cities), so control stands in and finds nothing.
 */
export const routedSources: SourcesOf = (env) => {
  const databases = databasesOf(env)
  return {
    control: databases.control,
    ofCity: (slug) => databases.ofCity(slug)?.db ?? databases.control,
    ofState: (state) => databases.ofState(state).map((at) => at.db),
    shard: (n) => {
      const db = databases.shards[n]
      if (!db) throw new StorageError(`the directory names shard ${n}, which the layout has not`)
      return db
    },
  }
}

/** A request's reads by role, and the sessions they opened. */
export interface PageReads {
  control: Db
  shards: ShardReads
  /** Control's reads as D1 takes them (the cities' copy reads through it). */
  controlD1: D1Reads
  /** Opens control's session now (an isolate that does not know its purges reads the primary). */
  openControl(): void
}

/**
 * The reads of one request from `sources`: one `Db` per database (statements sent together to
 * the same database are one round trip whatever role sent them), each opened on its first read
 * with a session by its rule (`sessionRule`), every opened session told to `opened`.
 */
export function pageReads(
  c: Context<AppEnv>,
  sources: ReadSources,
  opened: (session: ReadSession) => void,
): PageReads {
  const memory = c.get('memory')
  // A request begun before its isolate knew the purges reads every database's primary, however
  // soon the purges arrive: a session opened later cannot tell which of them its replica missed.
  const cold = !memory.purges.current
  const byDatabase = new Map<D1Database, { d1: D1Reads; open: () => void; db: Db }>()
  const readsOf = (database: D1Database) => {
    let reads = byDatabase.get(database)
    if (!reads) {
      const session = lazySession(c, database, database === sources.control, opened, cold)
      const db = openDb(session.d1, c.get('timing'), {
        trail: c.get('trail'),
        derived: memory.derivedReads,
      })
      byDatabase.set(database, (reads = { ...session, db }))
    }
    return reads
  }
  const control = readsOf(sources.control)
  const onShard = (placed: Placed): EntityReads => ({
    db: readsOf(sources.shard(placed.shard)).db,
    stateCode: placed.stateCode,
  })
  return {
    control: control.db,
    controlD1: control.d1,
    openControl: control.open,
    shards: {
      ofCity: (slug) => readsOf(sources.ofCity(slug)).db,
      ofState: (state) => sources.ofState(state).map((database) => readsOf(database).db),
      ofProvider: async (id) => {
        const placed = await findProviderPlace(control.db, id)
        return placed === 'removed' || placed === null ? placed : onShard(placed)
      },
      ofJob: async (id) => {
        const placed = await findJobPlace(control.db, id)
        return placed && onShard(placed)
      },
      entityTables: CONTROL_BLOCK_TABLES,
    },
  }
}

/**
 * The session of `database` for this request, opened at its first read: by then the edge cache
 * has told which tags the page is known to carry (`readTags`), which decide where it may read.
 */
function lazySession(
  c: Context<AppEnv>,
  database: D1Database,
  keepsPurges: boolean,
  opened: (session: ReadSession) => void,
  cold: boolean,
): { d1: D1Reads; open: () => void } {
  let session: D1DatabaseSession | undefined
  const open = (): D1DatabaseSession => {
    if (session) return session
    const tags = c.get('readTags') ?? [TAG.url(pageOfDataPath(c.req.path))]
    const chosen: ReadSession = cold
      ? { constraint: 'first-primary', since: null, covers: 0 }
      : sessionRule(c.get('memory').purges, tags, keepsPurges)
    const started = database.withSession(chosen.constraint)
    c.get('timing').note('d1-session', sessionKind(chosen.constraint))
    // A bookmark is only comparable with those of its own database: the purges' are control's.
    opened({ ...chosen, reached: keepsPurges ? () => started.getBookmark() : () => null })
    return (session = started)
  }
  return {
    d1: {
      prepare: (sql) => open().prepare(sql),
      batch: (statements) => open().batch(statements),
    },
    open: () => void open(),
  }
}

/**
 * The session rule of a database (read-session.ts). The purges record the bookmarks of control's
 * writes only, so a database that does not keep them cannot be read at one: where control would
 * read at a bookmark, it reads its primary.
 */
export function sessionRule(
  purges: KnownPurges,
  tags: readonly string[],
  keepsPurges: boolean,
  now = Date.now(),
): ReadSession {
  const chosen = readSession(purges, tags, now)
  if (keepsPurges || chosen.constraint.startsWith('first-')) return chosen
  return { constraint: 'first-primary', since: null, covers: 0 }
}

/** What a session's constraint says in Server-Timing: `first-primary`, `first-unconstrained` or `bookmark`. */
function sessionKind(constraint: string): string {
  return constraint.startsWith('first-') ? constraint : 'bookmark'
}
