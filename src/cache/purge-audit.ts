import { log } from '../observability/log'

/** One purge request as the audit log keeps it (`purge_log` in D1, and a log line). */
export interface PurgeAudit {
  at: string
  /** The token's name; 'unknown' when no valid token was presented. */
  who: string
  urls: readonly string[]
  tags: readonly string[]
  /** Tags bumped: 0 unless purged. */
  purged: number
  /** `purged`, `refused: <why>` or `failed: <why>`. */
  outcome: string
}

/**
 * Writes what a purge request came to: a log line first (it survives D1 being down; read it
 * with `wrangler tail` or Logpush), then the D1 row. Returns why the row could not be written,
 * or null: a purge that happened is never undone because its audit row failed.
 */
export async function writeAudit(db: D1Database, entry: PurgeAudit): Promise<string | null> {
  log('info', 'purge', { ...entry })
  try {
    await db
      .prepare(
        'INSERT INTO purge_log (at, token_name, urls, tags, purged, outcome) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .bind(
        entry.at,
        entry.who,
        JSON.stringify(entry.urls),
        JSON.stringify(entry.tags),
        entry.purged,
        entry.outcome,
      )
      .run()
    return null
  } catch (error) {
    return String(error)
  }
}
