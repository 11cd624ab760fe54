import type { KnownPurges } from '../cache/generations'

/**
 * How long after a purge this isolate's renders read from D1's primary. With read replication
 * on, a replica may lag the primary by a few seconds: a page re-rendered just after a data
 * change and its purge must not be stored again from an older copy (docs/data.md).
 */
export const PRIMARY_AFTER_PURGE_MS = 60_000

/**
 * The D1 session a request reads through (D1's Sessions API): any replica, the nearest, unless
 * a purge this isolate knows of is younger than PRIMARY_AFTER_PURGE_MS, or it knows nothing of
 * purges yet (a fresh isolate, which may be rendering just after one).
 */
export function readConstraint(purges: KnownPurges, now = Date.now()): D1SessionConstraint {
  if (!purges.known) return 'first-primary'
  return now - purges.newest < PRIMARY_AFTER_PURGE_MS ? 'first-primary' : 'first-unconstrained'
}
