import { applyChanges } from './apply'
import { recordApplied } from './applied-log'
import type { CatalogMessage } from './messages'
import { parseMessage } from './messages'
import { referenceProblem } from './reference-problem'
import { log } from '../observability/log'

// The queue consumer (docs/sync.md, "Failure handling"). A batch is applied as one D1
// transaction; when that fails on a message's data (an impossible reference), the batch is split
// until the messages that fail alone are found: they are retried, and the rest is applied. When
// D1 itself fails, the whole batch is retried. After max_retries the queue moves a message to the
// dead-letter queue, whose consumer records it with its reason and reports it once.

/** Reports a dead message once: why, and its kind as sent. */
export type ReportDead = (reason: string, kind: string) => void

function kindOf(body: unknown): string {
  const kind = (body as { kind?: unknown } | null)?.kind
  return typeof kind === 'string' ? kind.slice(0, 50) : 'unknown'
}

/** The dead-letter queues' names end so (wrangler.toml): their batches are recorded, not applied. */
export const DEAD_SUFFIX = '-dead'

/** Errors of a message's data rather than of D1: splitting the batch finds the message. */
const DATA_ERROR = /constraint failed|SQLITE_CONSTRAINT/i

export async function consume(
  batch: MessageBatch<unknown>,
  db: D1Database,
  reportDead: ReportDead,
): Promise<void> {
  if (batch.queue.endsWith(DEAD_SUFFIX)) return recordDead(batch, db, reportDead)
  const valid: { queued: Message<unknown>; change: CatalogMessage }[] = []
  const invalid: { queued: Message<unknown>; reason: string }[] = []
  for (const queued of batch.messages) {
    const parsed = parseMessage(queued.body)
    if (parsed.ok) valid.push({ queued, change: parsed.message })
    else invalid.push({ queued, reason: `invalid: ${parsed.reasons.join('; ')}` })
  }
  // No retry makes a malformed message valid: it is recorded as dead at once.
  if (invalid.length) {
    await writeDead(
      db,
      invalid.map(({ queued, reason }) => ({ body: queued.body, reason })),
    )
    for (const { queued, reason } of invalid) {
      reportDead(reason, kindOf(queued.body))
      queued.ack()
    }
  }
  await applySplitting(db, valid)
}

/** Applies `items` at once; when their data fails, each half on its own, down to single messages. */
async function applySplitting(
  db: D1Database,
  items: { queued: Message<unknown>; change: CatalogMessage }[],
): Promise<void> {
  if (items.length === 0) return
  try {
    const changes = items.map((i) => i.change)
    const rows = await applyChanges(db, changes)
    for (const { queued } of items) queued.ack()
    // Rows read and written are what D1 bills: per batch, with its kinds (docs/performance.md).
    log('info', 'sync: applied', { ...rows, messages: changes.length, kinds: kindCounts(changes) })
    // The tally is for people to watch; the changes stand whether or not it is written.
    await recordApplied(db, changes, Date.now()).catch((error: unknown) =>
      log('warn', 'sync: applied tally not written', { error: String(error) }),
    )
  } catch (error) {
    if (items.length === 1 || !DATA_ERROR.test(String(error))) {
      for (const { queued } of items) queued.retry()
      return
    }
    const half = Math.ceil(items.length / 2)
    await applySplitting(db, items.slice(0, half))
    await applySplitting(db, items.slice(half))
  }
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
  db: D1Database,
  reportDead: ReportDead,
): Promise<void> {
  const dead: { body: unknown; reason: string }[] = []
  for (const queued of batch.messages) {
    const parsed = parseMessage(queued.body)
    if (!parsed.ok) {
      dead.push({ body: queued.body, reason: `invalid: ${parsed.reasons.join('; ')}` })
      continue
    }
    try {
      await applyChanges(db, [parsed.message])
    } catch (error) {
      const reason = (await referenceProblem(db, parsed.message)) ?? String(error)
      dead.push({ body: queued.body, reason })
    }
  }
  await writeDead(db, dead)
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
