import type { CatalogMessage } from './messages'

// The changes the queue consumer applied, counted per minute and kind in `sync_applied`
// (migrations/control/0001_control.sql) for the ops console's catalog health page.

const MINUTE_MS = 60_000
/** How long the tally is kept: the console shows an hour of it; the cron deletes older rows. */
export const APPLIED_KEEP_MS = 24 * 60 * MINUTE_MS

/**
 * Adds a batch the consumer applied to this minute's tally: one upsert per kind in the batch, so
 * its cost follows the batches, not the changes (50 changes a second is a write or two a second).
 * A stale version counts: the consumer took it and the catalog holds its newer one.
 */
export async function recordApplied(
  db: D1Database,
  changes: readonly CatalogMessage[],
  at: number,
): Promise<void> {
  const kinds = new Map<string, number>()
  for (const { kind } of changes) kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  if (kinds.size === 0) return
  const minute = Math.floor(at / MINUTE_MS)
  await db.batch(
    [...kinds].map(([kind, n]) =>
      db
        .prepare(
          `INSERT INTO sync_applied (minute, kind, changes, last_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (minute, kind) DO UPDATE
           SET changes = changes + excluded.changes, last_at = MAX(last_at, excluded.last_at)`,
        )
        .bind(minute, kind, n, at),
    ),
  )
}

/** What the consumer applied in the hour before `now`: counts by kind, and its newest batch. */
export interface AppliedLately {
  byKind: { kind: string; changes: number }[]
  /** When the newest batch was applied (milliseconds), within the kept day; null: none. */
  newestAt: number | null
}

/** The last hour's tally: a range of the key (60 minutes × the kinds), and the newest minute's. */
export async function appliedLately(db: D1Database, now: number): Promise<AppliedLately> {
  const since = Math.floor((now - 60 * MINUTE_MS) / MINUTE_MS)
  const [byKind, newest] = await db.batch([
    db
      .prepare(
        `SELECT kind, SUM(changes) AS changes FROM sync_applied WHERE minute > ?
         GROUP BY kind ORDER BY changes DESC, kind`,
      )
      .bind(since),
    db.prepare(
      `SELECT MAX(last_at) AS at FROM sync_applied
       WHERE minute = (SELECT MAX(minute) FROM sync_applied)`,
    ),
  ])
  const at = (newest?.results[0] as { at: number | null } | undefined)?.at ?? null
  return {
    byKind: (byKind?.results ?? []) as { kind: string; changes: number }[],
    newestAt: at,
  }
}

/** Deletes the tally's rows older than APPLIED_KEEP_MS (the cron). */
export async function forgetOldApplied(db: D1Database, now: number): Promise<void> {
  await db
    .prepare('DELETE FROM sync_applied WHERE minute < ?')
    .bind(Math.floor((now - APPLIED_KEEP_MS) / MINUTE_MS))
    .run()
}
