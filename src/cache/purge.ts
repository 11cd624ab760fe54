import { z } from 'zod'
import { normalisedPath } from '../urls/normalised-path'
import { TAG, tagProblem } from './tags'
import { MAX_TAG_BYTES } from './generations'

/** The largest purge request body read; anything longer is refused unread. */
export const MAX_BODY_BYTES = 16 * 1024
/** How long a caller refused for too many failures is told to wait: the rate limit's period. */
export const FAILURE_WINDOW_S = 60

export const purgeRequestSchema = z
  .object({
    urls: z.array(z.string().min(1).max(2048)).max(100).default([]),
    tags: z
      .array(
        z.string().superRefine((tag, ctx) => {
          const problem = tagProblem(tag)
          if (problem) ctx.addIssue({ code: 'custom', message: problem })
        }),
      )
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
  // The scheme is case-insensitive (RFC 9110, section 11.1): `bearer x` is `Bearer x`.
  const presented = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1]
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
  return normalisedPath(parsed.pathname)
}

/**
 * A tag as pages carry it, so a purge of another spelling still purges them: slugs and ids are
 * lowercase (`state:GA` is `state:ga`), a URL's path is spelt as the request normaliser spells
 * it; page types keep their case (`page:seoSearchListing`).
 */
export function carriedTag(tag: string): string {
  const colon = tag.indexOf(':')
  const kind = tag.slice(0, colon)
  const value = tag.slice(colon + 1)
  if (kind === 'page') return tag
  if (kind === 'url') return TAG.url(normalisedPath(value))
  return `${kind}:${value.toLowerCase()}`
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
    if (new TextEncoder().encode(TAG.url(path)).byteLength > MAX_TAG_BYTES)
      return { error: `no page has a path this long: ${url.slice(0, 100)}` }
    paths.push(path)
  }
  return { tags: [...new Set([...paths.map(TAG.url), ...request.tags.map(carriedTag)])], paths }
}

/**
 * The key failed authentications are counted under (the PURGE_FAILURES rate limit): an IPv4
 * address; for IPv6, its /64 prefix, since one client usually holds a whole /64 and could
 * otherwise rotate through it unhindered. Callers without `cf-connecting-ip` (never one from the
 * internet: Cloudflare sets it on every request) share one bucket: as a valid token is checked
 * first and never limited, the bucket only slows guessers, never an operator.
 */
export function failureKey(address: string | undefined): string {
  const trimmed = address?.trim().toLowerCase().replace(/%.*$/, '') ?? ''
  if (!trimmed) return 'no-address'
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(trimmed)
  if (mapped) return `ipv4:${mapped[1] ?? ''}`
  if (!trimmed.includes(':')) return `ipv4:${trimmed}`
  const prefix = ipv6Prefix64(trimmed)
  return prefix ? `ipv6:${prefix}::/64` : 'unparsed-address'
}

/** The first four groups of an IPv6 address, normalised (`2001:db8:0:1`), or null if malformed. */
function ipv6Prefix64(address: string): string | null {
  const halves = address.split('::')
  if (halves.length > 2) return null
  const groups = (part: string | undefined) => (part ? part.split(':') : [])
  // An embedded IPv4 address (`::1.2.3.4`) takes the place of two groups.
  const width = (part: string[]) => part.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0)
  const head = groups(halves[0])
  const tail = groups(halves[1])
  const missing = 8 - width(head) - width(tail)
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  const first = all.slice(0, 4)
  if (!first.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null
  return first.map((g) => parseInt(g, 16).toString(16)).join(':')
}

/**
 * Counts a failed authentication of `address` in `limiter` and tells whether its key is over the
 * limit. A limiter that cannot answer counts as over (and is reported): without a valid token
 * nothing is lost by waiting.
 */
export async function overFailureLimit(
  limiter: RateLimit,
  address: string | undefined,
  unavailable: (error: string) => void,
): Promise<boolean> {
  try {
    const { success } = await limiter.limit({ key: failureKey(address) })
    return !success
  } catch (error) {
    unavailable(String(error))
    return true
  }
}
