import { log } from '../observability/log'
import type { Report } from '../observability/reporter'
import type { WaitUntil } from '../lib/kept'
import type { AuditLine } from '../views/ops/ops-types'

/** One purge request as the audit log keeps it (`purge_log` in D1, and a log line). */
export interface PurgeAudit {
  at: string
  /** The token's name (refusals of callers without a valid token are counted by RefusalTally). */
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
  const written = await writeAuditRow(db, entry)
  return 'error' in written ? written.error : null
}

/** As `writeAudit`, with the row's id when it was written (the console links to it). */
export async function writeAuditRow(
  db: D1Database,
  entry: PurgeAudit,
): Promise<{ id: number } | { error: string }> {
  log('info', 'purge', { ...entry })
  try {
    const { meta } = await db
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
    return { id: meta.last_row_id }
  } catch (error) {
    return { error: String(error) }
  }
}

/** How long audit rows are kept: the cron deletes older ones. */
export const AUDIT_KEEP_DAYS = 90
/** Rows deleted per cron run at most, so a backlog is worked off in bounded steps. */
const AUDIT_DELETE_ROWS = 10_000

/** Deletes audit rows older than AUDIT_KEEP_DAYS, at most AUDIT_DELETE_ROWS (the cron). */
export async function forgetOldAudit(db: D1Database, now: number): Promise<number> {
  const before = new Date(now - AUDIT_KEEP_DAYS * 86_400_000).toISOString()
  const { meta } = await db
    .prepare(
      'DELETE FROM purge_log WHERE id IN (SELECT id FROM purge_log WHERE at < ? ORDER BY at LIMIT ?)',
    )
    .bind(before, AUDIT_DELETE_ROWS)
    .run()
  return meta.changes
}

/** A refusal of a caller without a valid token. */
export type Refusal = 'refused: unauthorized (401)' | 'refused: locked out (429)'

/** How long an isolate gathers refusals before writing them: at most one write per this. */
export const REFUSALS_FLUSH_MS = 1_000

/**
 * Refusals of callers without a valid token, counted in the isolate's memory and written as one
 * row per outcome per minute with its count (`refused_minute`, `refusals`): a flood of wrong
 * tokens costs D1 one upsert per outcome per second per isolate, and adds two rows a minute at
 * most, whatever its size. Each refusal still writes its log line at once.
 */
export class RefusalTally {
  /** Counts not yet written, by minute and outcome. */
  readonly #pending = new Map<string, { minute: string; outcome: Refusal; count: number }>()
  #scheduled = false

  count(outcome: Refusal, at: string, db: D1Database, waitUntil: WaitUntil, report: Report): void {
    log('info', 'purge', { at, who: 'unknown', outcome })
    const minute = at.slice(0, 16)
    const key = `${minute} ${outcome}`
    const entry = this.#pending.get(key) ?? { minute, outcome, count: 0 }
    entry.count += 1
    this.#pending.set(key, entry)
    if (this.#scheduled) return
    this.#scheduled = true
    waitUntil(
      new Promise((resolve) => setTimeout(resolve, REFUSALS_FLUSH_MS))
        .then(() => this.#flush(db))
        .catch((error: unknown) =>
          report('purge: refusals not written to the audit log', { error: String(error) }),
        ),
    )
  }

  async #flush(db: D1Database): Promise<void> {
    const entries = [...this.#pending.values()]
    this.#pending.clear()
    this.#scheduled = false
    await db.batch(
      entries.map((e) =>
        db
          .prepare(
            `INSERT INTO purge_log (at, token_name, urls, tags, purged, outcome, refusals, refused_minute)
             VALUES (?, 'unknown', '[]', '[]', 0, ?, ?, ?)
             ON CONFLICT (refused_minute, outcome) DO UPDATE SET refusals = refusals + excluded.refusals`,
          )
          .bind(`${e.minute}:00.000Z`, e.outcome, e.count, e.minute),
      ),
    )
  }
}

/** One row of the audit log as the console lists it (the console's views name its shape). */
export type AuditRow = AuditLine

/**
 * The newest audit rows, by person (a token's name or an email) and by a tag or path they named,
 * each filter off when empty. Newest first from the `at` index; a filter reads on down the log
 * until `limit` rows match, so a rare one reads up to the log's 90 days.
 */
export async function recentPurges(
  db: D1Database,
  filter: { who: string; tag: string; limit: number },
): Promise<AuditRow[]> {
  const { results } = await db
    .prepare(
      `SELECT id, at, token_name AS who, urls, tags, purged, outcome, refusals FROM purge_log
       WHERE (?1 = '' OR token_name = ?1)
         AND (?2 = '' OR EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?2)
                      OR EXISTS (SELECT 1 FROM json_each(urls) WHERE value = ?2))
       ORDER BY at DESC, id DESC LIMIT ?3`,
    )
    .bind(filter.who, filter.tag, filter.limit)
    .all<Omit<AuditRow, 'urls' | 'tags'> & { urls: string; tags: string }>()
  return results.map(auditRow)
}

/** One audit row by id, or null. */
export async function auditEntry(db: D1Database, id: number): Promise<AuditRow | null> {
  const row = await db
    .prepare(
      'SELECT id, at, token_name AS who, urls, tags, purged, outcome, refusals FROM purge_log WHERE id = ?',
    )
    .bind(id)
    .first<Omit<AuditRow, 'urls' | 'tags'> & { urls: string; tags: string }>()
  return row ? auditRow(row) : null
}

function auditRow(row: Omit<AuditRow, 'urls' | 'tags'> & { urls: string; tags: string }): AuditRow {
  return { ...row, urls: JSON.parse(row.urls) as string[], tags: JSON.parse(row.tags) as string[] }
}
