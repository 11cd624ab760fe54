import type { Databases } from '../data/databases'
import { controlStatsStatements, shardStatsStatements } from '../data/refresh-stats'
import type { RowsTouched } from './apply'
import { messagesStatements, RATINGS } from './apply'
import type { CatalogMessage } from './messages'
import type { Applied, Move } from './move'
import { moveJob, moveProvider } from './move'
import type { OutboxRow } from './outbox'
import { outboxCleanup, PENDING_OUTBOX, shardOutboxStatements } from './outbox'
import { outboxStatements } from './outbox-apply'
import { FLUSH_PENDING_SQL, PURGE_TOUCHED_SQL } from './purge-tags'
import type { Routed, Whereabouts } from './route'
import { routeMessages } from './route'
import { statsBefore, statsByChange } from './stats-by-change'

// A batch of catalog changes applied across databases (docs/scale.md, "How sync routes a batch";
// docs/sync.md, "Across databases"): one control read tells the router where the batch's cities
// and providers are; each shard's part is one atomic, version-guarded batch on that shard that
// also writes the control writes it implies to its outbox; the moves the router reports run;
// then control applies its own messages and every shard's pending outbox rows in one batch.
// A shard failing fails only its part: its messages are retried, the others' parts stand.
// Control failing leaves the outboxes on the shards: the retry (whose shard parts are no-ops by
// their versions) reads them back and applies them, once each (outbox_applied).

/** At most this many shards' parts are sent at once: a Worker holds six connections. */
const PARALLEL_SHARDS = 6

export interface RoutedOutcome {
  /** The messages to retry: a failed shard's, a failed move's, all when control failed. */
  retry: CatalogMessage[]
  /** What failed: a shard by number (with its part's messages), or control. */
  failures: { database: number | 'control'; error: string; messages?: CatalogMessage[] }[]
  /** D1's count of rows read and written, every database's summed. */
  rows: RowsTouched
}

/**
 * What the routing read learnt: the router's whereabouts, each shard's outbox applied, and the
 * moves of the batch's providers and jobs cut short after the directory's switch, to finish.
 */
interface Known extends Whereabouts {
  applied: Applied
  unfinished: Move[]
  unfinishedJobs: Move[]
}

/** SQL: the directory's providers (or jobs) whose move left rows on the shard they left. */
const unfinishedIn = (table: 'provider_directory' | 'job_directory') =>
  `SELECT id, moving_from AS "from", shard AS "to" FROM ${table}
    WHERE moving_from IS NOT NULL AND moving_from != shard`

/** The directory's rows of the ids `?1` in `table`: where each is, and where it is leaving. */
const placesIn = (table: 'provider_directory' | 'job_directory') =>
  `SELECT id, shard, version, moving_from FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`

type DirectoryPlace = { id: number; shard: number; version: number; moving_from: number | null }

/** The directory's rows as the router's shard of each id, and the moves they leave unfinished. */
function placesOf(rows: DirectoryPlace[]) {
  const shardOf = new Map(rows.map((r) => [r.id, r.shard]))
  const versionOf = new Map(rows.map((r) => [r.id, r.version]))
  const unfinished = rows.flatMap(({ id, shard, moving_from: from }) =>
    from !== null && from !== shard ? [{ id, from, to: shard }] : [],
  )
  return {
    shardOf: (id: number) => shardOf.get(id) ?? null,
    versionOf: (id: number) => versionOf.get(id) ?? null,
    unfinished,
  }
}

/** The cities and providers the batch names, and the outbox applied: one control batch. */
async function readKnown(control: D1Database, messages: readonly CatalogMessage[]): Promise<Known> {
  const cities = new Set<number>()
  const providers = new Set<number>()
  const jobs = new Set<number>()
  for (const m of messages) {
    const city = 'entity' in m && 'cityId' in m.entity ? m.entity.cityId : null
    if (city !== null) cities.add(city)
    if (m.kind.startsWith('provider')) providers.add(m.id)
    if (m.kind === 'review.added') providers.add(m.entity.providerId)
    if (m.kind.startsWith('job.')) jobs.add(m.id)
  }
  const [slugs, providerRows, jobRows, removedRows, applied] = await control.batch([
    control
      .prepare('SELECT id, slug FROM cities WHERE id IN (SELECT value FROM json_each(?))')
      .bind(JSON.stringify([...cities])),
    control.prepare(placesIn('provider_directory')).bind(JSON.stringify([...providers])),
    control.prepare(placesIn('job_directory')).bind(JSON.stringify([...jobs])),
    control
      .prepare(
        `SELECT CAST(substr(key, 10) AS INTEGER) AS id, shard, version FROM directory_tombstones
          WHERE key IN (SELECT 'provider:' || value FROM json_each(?)) AND shard IS NOT NULL`,
      )
      .bind(JSON.stringify([...providers])),
    control.prepare('SELECT shard, seq FROM outbox_applied'),
  ])
  const slugOf = new Map(
    (slugs?.results as { id: number; slug: string }[]).map((r) => [r.id, r.slug]),
  )
  const providerPlaces = placesOf(providerRows?.results as DirectoryPlace[])
  const jobPlaces = placesOf(jobRows?.results as DirectoryPlace[])
  const removals = new Map(
    (removedRows?.results as { id: number; shard: number; version: number }[]).map((r) => [
      r.id,
      { shard: r.shard, version: r.version },
    ]),
  )
  const seqs: number[] = []
  for (const { shard, seq } of applied?.results as { shard: number; seq: number }[])
    seqs[shard] = seq
  return {
    citySlug: (id) => slugOf.get(id) ?? null,
    providerShard: providerPlaces.shardOf,
    jobShard: jobPlaces.shardOf,
    providerVersion: providerPlaces.versionOf,
    removal: (id) => removals.get(id) ?? null,
    reviewsMove: true,
    applied: seqs,
    unfinished: providerPlaces.unfinished,
    unfinishedJobs: jobPlaces.unfinished,
  }
}

/** The ids of the providers and jobs `messages` change, for their directory rows. */
function changedIds(messages: readonly CatalogMessage[]) {
  const ids = (kinds: string[]) => messages.filter((m) => kinds.includes(m.kind)).map((m) => m.id)
  return {
    providers: ids(['provider.upserted', 'provider.removed']),
    jobs: ids(['job.upserted', 'job.closed']),
  }
}

/**
 * A shard's part as one batch: its applied outbox rows deleted, the messages and the stats of
 * its cities (the shard's part of the derivation: src/data/refresh-stats.ts), the outbox of
 * control's writes, then every outbox row control has yet to apply read back.
 */
export function shardStatements(
  db: D1Database,
  messages: readonly CatalogMessage[],
  now: Date,
  applied: number,
): D1PreparedStatement[] {
  const rated = `SELECT CAST(value AS INTEGER) FROM sync_touched WHERE kind = 'rating'`
  return [
    outboxCleanup(db, applied),
    ...statsBefore(db, messages),
    ...messagesStatements(db, messages, { now, place: 'shard' }),
    db.prepare(`${RATINGS} WHERE id IN (${rated})`),
    db.prepare(
      `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
       SELECT 'listing', service, city_id FROM provider_services WHERE provider_id IN (${rated})`,
    ),
    ...shardStatsStatements(db, now, 'touched', { listings: false }),
    ...statsByChange(db, messages, { rollups: false }),
    ...shardOutboxStatements(db, changedIds(messages)),
    db.prepare('DELETE FROM sync_touched'),
    db.prepare(PENDING_OUTBOX).bind(applied),
  ]
}

/**
 * Control's batch: its own messages (cities, activities), every shard's pending outbox rows,
 * then what they touched derived from control's copies (activity stats, the states' and the
 * nation's rollups, the purges of the touched pages and the coalesced ones due), and the rows
 * applied recorded.
 */
export function controlStatements(
  control: D1Database,
  messages: readonly CatalogMessage[],
  outbox: readonly OutboxRow[],
  now: Date,
): D1PreparedStatement[] {
  const { applied, recorded } = outboxStatements(control, outbox)
  return [
    ...messagesStatements(control, messages, { now, place: 'control' }),
    ...applied,
    ...controlStatsStatements(control, now, 'touched'),
    ...[...PURGE_TOUCHED_SQL, ...FLUSH_PENDING_SQL].map((sql) =>
      control.prepare(sql).bind(now.getTime()),
    ),
    control.prepare('DELETE FROM sync_touched'),
    ...recorded,
  ]
}

/** Rows read and written of D1 results, added to `rows`. */
function count(rows: RowsTouched, results: readonly D1Result[]): void {
  for (const { meta } of results) {
    rows.rowsRead += meta.rows_read
    rows.rowsWritten += meta.rows_written
  }
}

/** The outbox rows a shard's batch ended by reading. */
function pendingOf(results: readonly D1Result[], shard: number): OutboxRow[] {
  const rows = (results[results.length - 1]?.results ?? []) as Omit<OutboxRow, 'shard'>[]
  return rows.map((row) => ({ shard, ...row }))
}

/** Every shard's part, at most PARALLEL_SHARDS at once: each shard's pending outbox, or its error. */
async function applyShards(
  databases: Databases,
  routed: Routed,
  known: Known,
  now: Date,
  rows: RowsTouched,
): Promise<Map<number, OutboxRow[] | Error>> {
  const outcomes = new Map<number, OutboxRow[] | Error>()
  const parts = routed.shards.flatMap((messages, shard) => (messages.length ? [shard] : []))
  for (let i = 0; i < parts.length; i += PARALLEL_SHARDS) {
    await Promise.all(
      parts.slice(i, i + PARALLEL_SHARDS).map(async (shard) => {
        const db = databases.shards[shard] as D1Database
        const messages = routed.shards[shard] ?? []
        try {
          const results = await db.batch(
            shardStatements(db, messages, now, known.applied[shard] ?? 0),
          )
          count(rows, results)
          outcomes.set(shard, pendingOf(results, shard))
        } catch (error) {
          outcomes.set(shard, error instanceof Error ? error : new Error(String(error)))
        }
      }),
    )
  }
  return outcomes
}

/**
 * The moves whose two shards applied their parts, run in turn, providers' then jobs'; a failed
 * one's message is retried (the next batch naming the entity, or the cron, finishes it).
 */
async function runMoves(
  databases: Databases,
  routed: Routed,
  { applied }: Known,
  outcomes: Map<number, OutboxRow[] | Error>,
  outcome: RoutedOutcome,
  now: Date,
): Promise<OutboxRow[]> {
  const pending: OutboxRow[] = []
  const entities = [
    {
      entity: 'provider',
      moves: routed.moves,
      kinds: ['provider.upserted'],
      run: (move: Move) => moveProvider(databases, move, applied),
    },
    {
      entity: 'job',
      moves: routed.jobMoves,
      kinds: ['job.upserted', 'job.closed'],
      run: (move: Move) => moveJob(databases, move, { applied, now }),
    },
  ]
  for (const { entity, moves, kinds, run } of entities) {
    const retry = (move: Move, error: string) => {
      outcome.failures.push({ database: move.to, error })
      for (const m of routed.shards[move.to] ?? [])
        if (kinds.includes(m.kind) && m.id === move.id && !outcome.retry.includes(m))
          outcome.retry.push(m)
    }
    for (const move of moves) {
      if (outcomes.get(move.from) instanceof Error || outcomes.get(move.to) instanceof Error) {
        retry(move, `move of ${entity} ${move.id} waits for its shards`)
        continue
      }
      try {
        pending.push(...(await run(move)))
      } catch (error) {
        retry(move, String(error))
      }
    }
  }
  return pending
}

/**
 * Applies `messages` across `databases`. Resolves to what to retry (never throws for a
 * database's failure: each part stands or fails alone).
 */
export async function applyRouted(
  databases: Databases,
  messages: readonly CatalogMessage[],
  { now = new Date() }: { now?: Date } = {},
): Promise<RoutedOutcome> {
  const outcome: RoutedOutcome = { retry: [], failures: [], rows: { rowsRead: 0, rowsWritten: 0 } }
  if (messages.length === 0) return outcome
  let known: Known
  try {
    known = await readKnown(databases.control, messages)
  } catch (error) {
    return {
      ...outcome,
      retry: [...messages],
      failures: [{ database: 'control', error: String(error) }],
    }
  }
  const routed = routeMessages(databases.layout, messages, known)
  for (const move of known.unfinished)
    if (!routed.moves.some((m) => m.id === move.id)) routed.moves.push(move)
  for (const move of known.unfinishedJobs)
    if (!routed.jobMoves.some((m) => m.id === move.id)) routed.jobMoves.push(move)
  outcome.retry.push(...routed.unplaced.map((u) => u.message))
  const outcomes = await applyShards(databases, routed, known, now, outcome.rows)
  const pending: OutboxRow[] = []
  for (const [shard, result] of outcomes) {
    if (result instanceof Error) {
      // What the queue delivered: a review's removal made for this shard stands for the review.
      const part = [...new Set((routed.shards[shard] ?? []).map((m) => routed.sentFor.get(m) ?? m))]
      outcome.failures.push({ database: shard, error: result.message, messages: part })
      for (const m of part) if (!outcome.retry.includes(m)) outcome.retry.push(m)
    } else pending.push(...result)
  }
  pending.push(...(await runMoves(databases, routed, known, outcomes, outcome, now)))
  await applyOnControl(databases.control, routed.control, pending, now, messages, outcome)
  return outcome
}

/**
 * Control's batch; when it fails every message is retried: their shard parts are then no-ops by
 * their versions, and read back the outbox rows control has yet to apply.
 */
async function applyOnControl(
  control: D1Database,
  own: readonly CatalogMessage[],
  pending: readonly OutboxRow[],
  now: Date,
  messages: readonly CatalogMessage[],
  outcome: RoutedOutcome,
): Promise<void> {
  if (own.length === 0 && pending.length === 0) return
  try {
    count(outcome.rows, await control.batch(controlStatements(control, own, pending, now)))
  } catch (error) {
    outcome.failures.push({ database: 'control', error: String(error) })
    for (const m of messages) if (!outcome.retry.includes(m)) outcome.retry.push(m)
  }
}

/**
 * Applies on control every outbox row the shards hold that it has not (the cron's step, so an
 * outbox a failed control batch left is applied even if no retry comes): the moves cut short
 * finished, then one read per shard, one control batch.
 */
export async function flushOutboxes(databases: Databases, now = new Date()): Promise<number> {
  // A move cut short after the directory's switch is finished first: its outbox rows follow.
  const [providers, jobs] = await databases.control.batch<Move>([
    databases.control.prepare(unfinishedIn('provider_directory')),
    databases.control.prepare(unfinishedIn('job_directory')),
  ])
  for (const move of providers?.results ?? []) await moveProvider(databases, move)
  for (const move of jobs?.results ?? []) await moveJob(databases, move, { now })
  const { results } = await databases.control
    .prepare('SELECT shard, seq FROM outbox_applied')
    .all<{ shard: number; seq: number }>()
  const applied = new Map(results.map((r) => [r.shard, r.seq]))
  const pending = (
    await Promise.all(
      databases.shards.map(async (db, shard) => {
        const { results: rows } = await db
          .prepare(PENDING_OUTBOX)
          .bind(applied.get(shard) ?? 0)
          .all<Omit<OutboxRow, 'shard'>>()
        return rows.map((row) => ({ shard, ...row }))
      }),
    )
  ).flat()
  if (pending.length)
    await databases.control.batch(controlStatements(databases.control, [], pending, now))
  return pending.length
}
