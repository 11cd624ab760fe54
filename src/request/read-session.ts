import type { KnownPurges } from '../cache/generations'
import { PRIMARY_AFTER_PURGE_MS } from '../cache/generations'

/**
 * The D1 session a request reads through (D1's Sessions API): any replica, the nearest, unless
 * a purge this isolate knows of is younger than PRIMARY_AFTER_PURGE_MS, or it knows nothing of
 * purges yet (a fresh isolate, which may be rendering just after one).
 */
export function readConstraint(purges: KnownPurges, now = Date.now()): D1SessionConstraint {
  if (!purges.known) return 'first-primary'
  return now - purges.newest < PRIMARY_AFTER_PURGE_MS ? 'first-primary' : 'first-unconstrained'
}
