import type { Context } from 'hono'
import type { AppEnv } from '../env'
import type { EntryMeta } from './entry-meta'
import type { Policy } from './policies'
import { cacheControl, GONE_TTL, NOT_FOUND_TTL, REDIRECT_TTL } from './policies'

/** How long a render may be stored and served, and the Cache-Control it goes out with. */
export type Lifetimes = Omit<EntryMeta, 'storedAt' | 'tags' | 'etag' | 'nonce' | 'complete'>

/**
 * Why a render is not stored, in the order the edge cache asks. A render from a replica behind a
 * purge of its tags is another case: it is rendered again (`fromCurrentData`).
 */
export type NotStored =
  | 'unread'
  | 'no cache'
  | 'status'
  | 'sets a cookie'
  | 'render failed'
  | 'stray flags'
  | 'behind a purge'

/**
 * An id page's 404 answered with no read (src/request/id-misses.ts): never stored, and sent with
 * its own `no-store`.
 */
export const UNREAD: { windows: null; notStored: NotStored } = {
  windows: null,
  notStored: 'unread',
}

/**
 * Whether a render may be stored, before its body is read: the Cache API answered, its status
 * and expiry give it lifetimes (`lifetimes`), and it sets no cookie. `windows` are set whenever
 * the status has lifetimes, stored or not: they give the response its Cache-Control.
 */
export function storableHead(
  policy: Policy,
  cache: Cache | null,
  res: Response,
  now: number,
): { windows: Lifetimes | null; notStored: NotStored | null } {
  const windows = lifetimes(policy, res, now)
  const notStored: NotStored | null = !windows
    ? 'status'
    : cache === null
      ? 'no cache'
      : res.headers.has('set-cookie')
        ? 'sets a cookie'
        : null
  return { windows, notStored }
}

/**
 * Whether a complete render may be stored, as far as the render itself tells: only an
 * error-free one (a section that failed is never stored), and one that read no flag its key
 * does not name (another variant may differ). Then it must still be read from data no older
 * than the purges of its tags (`fromCurrentData`).
 */
export function storableRender(c: Context<AppEnv>): NotStored | null {
  if (c.get('renderFailed')) return 'render failed'
  const stray = c.get('flags').stray()
  if (!stray.length) return null
  c.get('reporter').problem('cache: page read flags its variant does not key on', { stray })
  return 'stray flags'
}

/**
 * Whether a render read data no older than the purges of its tags. The primary is always
 * current. A replica may lag it by up to REPLICATION_WINDOW_MS, so a render from one is stored
 * only once the isolate knows every purge recorded before the render began (asking the primary
 * if need be), and each purge of the page's tags in that window before it was one the session
 * included (by the bookmark it was opened at, or where it stood once read): else a data change
 * and its purge, just made, could lose to the replica's older copy (docs/data.md).
 */
export async function fromCurrentData(
  c: Context<AppEnv>,
  tags: readonly string[],
): Promise<boolean> {
  // A render that read nothing through this request's sessions (a 404 the gate or the page
  // table decided, a page from kept data) has no replica data to be behind.
  const replicas = c.get('readSessions').filter((session) => session.since !== null)
  if (replicas.length === 0 || c.get('timing').count('d1') === 0) return true
  const { purges } = c.get('memory')
  const since = Math.min(...replicas.map((session) => session.since ?? Infinity))
  if (!(await purges.completeBefore(since, c.env.CONTROL, c.get('reporter').problem))) return false
  return replicas.every((session) =>
    purges.readCovers(tags, session.since ?? since, session.covers, session.reached?.() ?? null),
  )
}

/** Answers kept briefly, whatever the page's policy, and for how long (seconds). */
const BRIEFLY: Readonly<Partial<Record<number, number>>> = {
  301: REDIRECT_TTL,
  404: NOT_FOUND_TTL,
  410: GONE_TTL,
}

/**
 * How long a render may be served: by policy for 200, briefly for an entity's redirect, 404 and
 * 410, never otherwise.
 */
export function lifetimes(policy: Policy, res: Response, now: number): Lifetimes | null {
  const brief = BRIEFLY[res.status]
  if (brief !== undefined) {
    const ttl = brief * 1000
    const until = now + ttl
    return {
      freshUntil: until,
      staleUntil: until,
      keepUntil: until,
      cacheControl: `public, max-age=0, s-maxage=${ttl / 1000}`,
    }
  }
  if (res.status !== 200) return null
  // A page that expires (a job's closing moment) is never served past it, not even stale.
  const expires = Date.parse(res.headers.get('expires') ?? '')
  const cap = (t: number) => (Number.isNaN(expires) ? t : Math.min(t, expires))
  const freshUntil = cap(now + policy.sMaxage * 1000)
  if (freshUntil <= now) return null
  return {
    freshUntil,
    staleUntil: cap(freshUntil + policy.swr * 1000),
    keepUntil: cap(freshUntil + policy.staleIfError * 1000),
    cacheControl: cacheControl({ ...policy, sMaxage: Math.floor((freshUntil - now) / 1000) }),
  }
}
