import type { Databases } from '../data/databases'
import { recordApplied } from './applied-log'
import type { CatalogMessage } from './messages'
import { parseMessage } from './messages'
import { DIRECTORY_TABLES, referenceProblem } from './reference-problem'
import type { RoutedOutcome } from './routed-apply'
import { applyRouted } from './routed-apply'
import { log } from '../observability/log'

// The queue consumer (docs/sync.md, "Failure handling"). A batch is applied across control and
// the shards (src/sync/routed-apply.ts): each shard's part one D1 transaction, control's another.
// A shard's part that fails on a message's data (an impossible reference) is split until the
// messages that fail alone are found: they are retried, and the rest is applied. When D1 itself
// fails, the messages of the part that failed are retried; the other parts stand. After
// max_retries the queue moves a message to the dead-letter queue, whose consumer records it in
// control with its reason and reports it once.

/** Reports a dead message once: why, and its kind as sent. */
export type ReportDead = (reason: string, kind: string) => void

function kindOf(body: unknown): string {
  const kind = (body as { kind?: unknown } | null)?.kind
  return typeof kind === 'string' ? kind.slice(0, 50) : 'unknown'
}

/** The dead-letter queues' names end so (wrangler.toml): their batches are recorded, not applied. */
export const DEAD_SUFFIX = '-dead'

/** Errors of a message's data rather than of D1: splitting the part finds the message. */
const DATA_ERROR = /constraint failed|SQLITE_CONSTRAINT/i

interface Item {
  queued: Message<unknown>
  change: CatalogMessage
}

export async function consume(
  batch: MessageBatch<unknown>,
  databases: Databases,
  reportDead: ReportDead,
): Promise<void> {
  if (batch.queue.endsWith(DEAD_SUFFIX)) return recordDead(batch, databases, reportDead)
  const valid: Item[] = []
  const invalid: { queued: Message<unknown>; reason: string }[] = []
  for (const queued of batch.messages) {
    const parsed = parseMessage(queued.body)
    if (parsed.ok) valid.push({ queued, change: parsed.message })
    else invalid.push({ queued, reason: `invalid: ${parsed.reasons.join('; ')}` })
  }
  // No retry makes a malformed message valid: it is recorded as dead at once.
  if (invalid.length) {
    await writeDead(
      databases.control,
      invalid.map(({ queued, reason }) => ({ body: queued.body, reason })),
    )
    for (const { queued, reason } of invalid) {
      reportDead(reason, kindOf(queued.body))
      queued.ack()
    }
  }
  await applySplitting(databases, valid)
}

/**
 * Applies `items` across the databases and acknowledges all but what is to be retried; a shard's
 * part that failed on its data is applied again in halves, down to single messages.
 */
async function applySplitting(databases: Databases, items: Item[]): Promise<void> {
  if (items.length === 0) return
  const changes = items.map((i) => i.change)
  const outcome = await applyRouted(databases, changes)
  const retry = new Set(outcome.retry)
  const applied = items.filter((i) => !retry.has(i.change))
  for (const { queued } of applied) queued.ack()
  // Rows read and written are what D1 bills: per batch, with its kinds (docs/performance.md).
  log('info', 'sync: applied', {
    ...outcome.rows,
    messages: applied.length,
    kinds: kindCounts(applied.map((i) => i.change)),
  })
  // The tally is for people to watch; the changes stand whether or not it is written.
  await recordApplied(
    databases.control,
    applied.map((i) => i.change),
    Date.now(),
  ).catch((error: unknown) =>
    log('warn', 'sync: applied tally not written', { error: String(error) }),
  )
  const parts = splitParts(outcome)
  const split = new Set(parts.flat())
  for (const item of items)
    if (retry.has(item.change) && !split.has(item.change)) item.queued.retry()
  const itemOf = new Map(items.map((i) => [i.change, i]))
  for (const part of parts) {
    const halves = part.map((m) => itemOf.get(m) as Item)
    const half = Math.ceil(halves.length / 2)
    await applySplitting(databases, halves.slice(0, half))
    await applySplitting(databases, halves.slice(half))
  }
}

/**
 * The shards' parts to apply again in halves: those that failed on a message's data with more
 * than one message to retry, while control took its batch (when it did not, every message is
 * retried whole: its shard parts are then no-ops by their versions).
 */
function splitParts(outcome: RoutedOutcome): CatalogMessage[][] {
  const { failures } = outcome
  if (failures.some((f) => f.database === 'control')) return []
  const retry = new Set(outcome.retry)
  // A message also in a part that failed otherwise (a city goes to every shard) is retried whole.
  const otherwise = new Set(
    failures.flatMap((f) => (DATA_ERROR.test(f.error) ? [] : (f.messages ?? []))),
  )
  const taken = new Set<CatalogMessage>()
  const parts: CatalogMessage[][] = []
  for (const { error, messages = [] } of failures) {
    if (!DATA_ERROR.test(error)) continue
    const part = messages.filter((m) => retry.has(m) && !otherwise.has(m) && !taken.has(m))
    for (const m of part) taken.add(m)
    if (part.length > 1) parts.push(part)
  }
  return parts
}

function kindCounts(changes: readonly CatalogMessage[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { kind } of changes) counts[kind] = (counts[kind] ?? 0) + 1
  return counts
}

/**
 * A dead-letter batch: each message is tried once more on its own (what it referred to may have
 * arrived since); one that still fails is recorded in sync_dead with its reason and reported.
 */
async function recordDead(
  batch: MessageBatch<unknown>,
  databases: Databases,
  reportDead: ReportDead,
): Promise<void> {
  const dead: { body: unknown; reason: string }[] = []
  for (const queued of batch.messages) {
    const parsed = parseMessage(queued.body)
    if (!parsed.ok) {
      dead.push({ body: queued.body, reason: `invalid: ${parsed.reasons.join('; ')}` })
      continue
    }
    const outcome = await applyRouted(databases, [parsed.message])
    if (outcome.retry.length === 0) continue
    const failed = outcome.failures.map((f) => f.error).join('; ')
    const problem = await referenceProblem(databases.control, parsed.message, DIRECTORY_TABLES)
    dead.push({ body: queued.body, reason: problem ?? (failed || 'not applied') })
  }
  await writeDead(databases.control, dead)
  for (const { body, reason } of dead) reportDead(reason, kindOf(body))
  batch.ackAll()
}

async function writeDead(db: D1Database, dead: { body: unknown; reason: string }[]) {
  if (dead.length === 0) return
  const at = Date.now()
  await db.batch(
    dead.map(({ body, reason }) =>
      db
        .prepare('INSERT INTO sync_dead (at, message, reason) VALUES (?, ?, ?)')
        .bind(at, JSON.stringify(body) ?? 'null', reason.slice(0, 2000)),
    ),
  )
}
