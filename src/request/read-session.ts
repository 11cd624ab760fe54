import type { KnownPurges } from '../cache/generations'

/** The session a page's reads go through, and what it lets the edge cache store. */
export interface ReadSession {
  /** `first-primary`, `first-unconstrained`, or a bookmark (D1's own string). */
  constraint: string
  /**
   * When a read that a replica may answer began (null: the primary's, always current): a render
   * from it is stored only if its purges allow (src/cache/edge-cache.ts, `fromCurrentData`).
   */
  since: number | null
  /** The purge rows the session's bookmark is known to include, by seq (0: none). */
  covers: number
  /** Where the session stood once it had read (its bookmark), null before any read. */
  reached?: () => string | null
}

/**
 * The D1 session a page's reads go through (D1's Sessions API), from the purges of the page's
 * own tags (`tags`: those known before it renders, docs/data.md):
 *
 * - none purged within the replication window: any replica, the nearest (`first-unconstrained`);
 * - purged within it: the bookmark of a session that saw those purges' rows, which every one of
 *   them was written in the same transaction as its data change: any replica caught up to it may
 *   answer, and has the change;
 * - a purge within it known without a bookmark, purges not current (a cold isolate, or one whose
 *   read of them failed): the primary.
 */
export function readSession(
  purges: KnownPurges,
  tags: readonly string[],
  now = Date.now(),
): ReadSession {
  if (!purges.current) return { constraint: 'first-primary', since: null, covers: 0 }
  const need = purges.readNeed(tags, now)
  if (need === null) return { constraint: 'first-unconstrained', since: now, covers: 0 }
  if (need === 'primary') return { constraint: 'first-primary', since: null, covers: 0 }
  return { constraint: need.bookmark, since: now, covers: need.seq }
}
