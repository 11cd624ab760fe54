import { z } from 'zod'
import { urlTag } from './cache-key'
import { MAX_TAG_BYTES } from './generations'

/** The largest purge request body read; anything longer is refused unread. */
export const MAX_BODY_BYTES = 16 * 1024
/** Failed authentications from one address before it must wait. */
export const MAX_FAILURES = 5
export const FAILURE_WINDOW_MS = 60_000

export const purgeRequestSchema = z
  .object({
    urls: z.array(z.string().min(1).max(2048)).max(100).default([]),
    tags: z
      .array(z.string().regex(/^[a-z]+:[A-Za-z0-9._/-]{1,200}$/))
      .max(100)
      .default([]),
  })
  .strict()
  .refine((r) => r.urls.length + r.tags.length > 0, 'name at least one url or tag')

export type PurgeRequest = z.infer<typeof purgeRequestSchema>

/**
 * The name of the token presented, or null. PURGE_TOKEN holds one token (named "ops") or named
 * ones, `alice=…,ci=…` (see `namedTokens`). Every configured token is compared, in constant
 * time, on SHA-256 digests of equal length, so neither timing nor length tells how close a
 * guess was.
 */
export async function tokenName(
  authorization: string | undefined,
  configured: string | undefined,
): Promise<string | null> {
  const presented = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1]
  if (!presented || !configured) return null
  const digest = async (text: string) =>
    crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  const mine = await digest(presented)
  let name: string | null = null
  for (const [candidate, token] of namedTokens(configured)) {
    if (crypto.subtle.timingSafeEqual(mine, await digest(token))) name ??= candidate
  }
  return name
}

/** A token's name: lowercase, as the audit log shows it. */
const NAMED = /^([a-z][a-z0-9_-]*)=(?!=)(.+)$/

/**
 * The tokens of PURGE_TOKEN, comma-separated, each `name=token` or a bare token (named "ops").
 * A token may contain `=` (base64 padding: `abc==`, `ci=abc==`): only a lowercase name followed
 * by one `=` and something other than more `=` is a name, and the token is everything after
 * that first `=`. A bare token that itself looks like `name=rest` must be given a name
 * (`ops=name=rest`). Tokens cannot contain commas.
 */
export function namedTokens(configured: string): [name: string, token: string][] {
  return configured
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = NAMED.exec(entry)
      return m ? [m[1] ?? '', m[2] ?? ''] : ['ops', entry]
    })
}

/** The path of a URL to purge, if it is one of this site's: an absolute URL on the public origin, or a path. */
export function purgePath(url: string, origin: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url, origin)
  } catch {
    return null
  }
  if (parsed.origin !== new URL(origin).origin) return null
  return '/' + parsed.pathname.split('/').filter(Boolean).join('/').toLowerCase()
}

/** The tags a purge request bumps: its tags, and the tag of every URL. */
export function purgeTags(
  request: PurgeRequest,
  origin: string,
): { tags: string[]; paths: string[] } | { error: string } {
  const paths: string[] = []
  for (const url of request.urls) {
    const path = purgePath(url, origin)
    if (!path) return { error: `not a URL of this site: ${url.slice(0, 100)}` }
    if (new TextEncoder().encode(urlTag(path)).byteLength > MAX_TAG_BYTES)
      return { error: `no page has a path this long: ${url.slice(0, 100)}` }
    paths.push(path)
  }
  return { tags: [...new Set([...paths.map(urlTag), ...request.tags])], paths }
}

// Failed authentications by address, in this isolate only: each isolate counts its own, so the
// limit is per isolate, not global. Oldest window first (an address is moved to the end when its
// window restarts), so expired entries are pruned from the front.
const failures = new Map<string, { count: number; since: number }>()
/** Addresses tracked at most: past this, the oldest are forgotten first. */
export const MAX_TRACKED_ADDRESSES = 10_000

/** Whether `address` has failed too often lately; each failure is counted by `recordFailure`. */
export function isLockedOut(address: string, now: number): boolean {
  prune(now)
  const f = failures.get(address)
  return f !== undefined && f.count >= MAX_FAILURES
}

/** Counts a failure of `address` (a refusal while locked out too); returns its count in the window. */
export function recordFailure(address: string, now: number): number {
  prune(now)
  const f = failures.get(address) ?? { count: 0, since: now }
  f.count += 1
  failures.set(address, f)
  for (const [oldest] of failures) {
    if (failures.size <= MAX_TRACKED_ADDRESSES) break
    failures.delete(oldest)
  }
  return f.count
}

/** How many addresses this isolate is tracking (tests). */
export function trackedAddresses(): number {
  return failures.size
}

/** Forgets the failures whose window has passed. */
function prune(now: number): void {
  for (const [address, f] of failures) {
    if (now - f.since <= FAILURE_WINDOW_MS) break
    failures.delete(address)
  }
}
