import { writeAuditRow } from '../cache/purge-audit'
import type { DeadLine } from '../views/ops/ops-types'
import { enqueueChanges } from './enqueue'
import type { CatalogMessage } from './messages'
import { MAX_MESSAGES, parseMessage } from './messages'

// The catalog's dead letters (docs/sync.md, "Failure handling"): listing them and sending them
// back to the queue. The one implementation behind the ops console's health page,
// POST /__ops/catalog/replay and `npm run sync -- dead | replay`.

/** A row of `sync_dead` as D1 holds it. */
export interface DeadRow {
  id: number
  at: number
  message: string
  reason: string
  replayed_at: number | null
}

/** A dead letter as people read it: what it was, why it died (the health page's line). */
export type DeadLetter = DeadLine

/** The open dead letters (not replayed), oldest first: `?` is the limit (the CLI reads it so). */
export const OPEN_DEAD_SQL = 'SELECT * FROM sync_dead WHERE replayed_at IS NULL ORDER BY id LIMIT ?'

/** A row read for people: its message's kind, id and version (whatever the message's shape). */
export function deadLetter(row: DeadRow): DeadLetter {
  let sent: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(row.message)
    if (parsed && typeof parsed === 'object') sent = parsed as Record<string, unknown>
  } catch {
    // A message that is no JSON is listed all the same, with its reason.
  }
  const shown = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '?')
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    kind: shown(sent.kind),
    entity: shown(sent.id),
    version: shown(sent.version),
    reason: row.reason,
  }
}

/** The open dead letters, oldest first, at most `limit`, and how many are open in all. */
export async function openDeadLetters(
  db: D1Database,
  limit: number,
): Promise<{ letters: DeadLetter[]; open: number }> {
  const [rows, count] = await db.batch([
    db.prepare(OPEN_DEAD_SQL).bind(limit),
    db.prepare('SELECT COUNT(*) AS open FROM sync_dead WHERE replayed_at IS NULL'),
  ])
  return {
    letters: ((rows?.results ?? []) as DeadRow[]).map(deadLetter),
    open: (count?.results[0] as { open: number } | undefined)?.open ?? 0,
  }
}

/** Which dead letters to send back: these (replayed before or not), or the open ones. */
export type ReplaySelection = { ids: readonly number[] } | 'open'

/** What a replay came to. */
export type Replay =
  | {
      /** Sent back to the queue, and marked replayed. */
      replayed: number[]
      /** Still no valid message: left dead, with why. */
      refused: { id: number; reasons: string[] }[]
      /** Open dead letters left (a replay of the open ones takes MAX_MESSAGES at a time). */
      remaining: number
      /** Whether the audit row was written (the replay stands either way). */
      logged: boolean
    }
  | { missing: number[] }
  | { error: string }

/**
 * Sends dead letters back to the catalog queue, where the consumer applies each if it is still
 * the newest version of its entity, and marks them replayed; writes the audit row naming `who`.
 * Ids that name no dead letter replay nothing. A message that still fails validation stays dead.
 */
export async function replayDeadLetters(
  db: D1Database,
  queue: Queue,
  selection: ReplaySelection,
  who: string,
): Promise<Replay> {
  const rows = await selected(db, selection)
  if (selection !== 'open') {
    const missing = selection.ids.filter((id) => !rows.some((r) => r.id === id))
    if (missing.length) return { missing }
  }
  const valid: { id: number; message: CatalogMessage }[] = []
  const refused: { id: number; reasons: string[] }[] = []
  for (const row of rows) {
    const parsed = parseMessage(parsedJson(row.message))
    if (parsed.ok) valid.push({ id: row.id, message: parsed.message })
    else refused.push({ id: row.id, reasons: parsed.reasons })
  }
  // Messages are idempotent: after a failure part-way, replaying them all again is safe.
  const sent = await enqueueChanges(
    queue,
    valid.map((v) => v.message),
  )
  if ('error' in sent) return { error: `the queue refused them: ${sent.error}` }
  const replayed = valid.map((v) => v.id)
  if (replayed.length)
    await db
      .prepare('UPDATE sync_dead SET replayed_at = ? WHERE id IN (SELECT value FROM json_each(?))')
      .bind(Date.now(), JSON.stringify(replayed))
      .run()
  const logged = await audit(db, who, replayed, refused)
  const left = await db
    .prepare('SELECT COUNT(*) AS n FROM sync_dead WHERE replayed_at IS NULL')
    .first<{ n: number }>()
  return { replayed, refused, remaining: left?.n ?? 0, logged }
}

async function selected(db: D1Database, selection: ReplaySelection): Promise<DeadRow[]> {
  const { results } =
    selection === 'open'
      ? await db.prepare(OPEN_DEAD_SQL).bind(MAX_MESSAGES).all<DeadRow>()
      : await db
          .prepare(
            'SELECT * FROM sync_dead WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
          )
          .bind(JSON.stringify(selection.ids.slice(0, MAX_MESSAGES)))
          .all<DeadRow>()
  return results
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The replay's row in the audit log the purges and flag changes share. */
async function audit(
  db: D1Database,
  who: string,
  replayed: readonly number[],
  refused: readonly { id: number }[],
): Promise<boolean> {
  const ids = (list: readonly number[]) => {
    const named = list.slice(0, 20).map((id) => `#${id}`)
    return list.length > named.length ? `${named.join(', ')}, …` : named.join(', ')
  }
  const outcome =
    `dead letters replayed: ${replayed.length}${replayed.length ? ` (${ids(replayed)})` : ''}` +
    (refused.length ? `; still invalid: ${ids(refused.map((r) => r.id))}` : '')
  const row = await writeAuditRow(db, {
    at: new Date().toISOString(),
    who,
    urls: [],
    tags: [],
    purged: 0,
    outcome,
  })
  return !('error' in row)
}
