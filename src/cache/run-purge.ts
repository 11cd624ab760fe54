import type { Report } from '../observability/reporter'
import type { KnownPurges } from './generations'
import { recordPurge } from './generations'
import { writeAuditRow } from './purge-audit'

/** A purge resolved (src/cache/purge.ts `purgeTags`): the paths and tags asked for, the tags bumped. */
export interface ResolvedPurge {
  paths: string[]
  tags: string[]
  bumped: string[]
}

/** What a purge came to: its audit row's id (null if the row could not be written). */
export type PurgeOutcome =
  | { purged: number; at: string; auditId: number | null }
  | { failed: string; at: string; auditId: number | null }

/**
 * Makes a resolved purge and writes its audit row, by `who` (a token's name, or a person's
 * email): the one way both the endpoint (and so the CLI) and the console purge. A purge that
 * happened is never undone because its audit row failed; the failure is reported.
 */
export async function runPurge(
  deps: { db: D1Database; known: KnownPurges; problem: Report },
  who: string,
  purge: ResolvedPurge,
  now: number,
): Promise<PurgeOutcome> {
  const at = new Date(now).toISOString()
  const audit = async (purged: number, outcome: string) => {
    const row = await writeAuditRow(deps.db, {
      at,
      who,
      urls: purge.paths,
      tags: purge.tags,
      purged,
      outcome,
    })
    if ('error' in row) deps.problem('purge: audit row not written', { error: row.error })
    return 'id' in row ? row.id : null
  }
  try {
    await recordPurge(deps.known, deps.db, purge.bumped, now)
  } catch (error) {
    deps.problem('purge: not recorded', { error: String(error) })
    return { failed: String(error), at, auditId: await audit(0, `failed: ${String(error)}`) }
  }
  return { purged: purge.bumped.length, at, auditId: await audit(purge.bumped.length, 'purged') }
}
