import type { CookieOptions } from 'hono/utils/cookie'
import { parse, serialize } from 'hono/utils/cookie'

/**
 * Secure, SameSite=Lax, Path=/ (and 400 days, the longest browsers keep), and HttpOnly: the
 * browser script reads no cookie (docs/pages.md, "Cookies").
 */
export const COOKIE_OPTIONS: CookieOptions = {
  path: '/',
  secure: true,
  httpOnly: true,
  sameSite: 'Lax',
  maxAge: 400 * 86_400,
}

/** What only a shared cache heeds: gone from a response made private. */
const SHARED_ONLY = /^(public|s-maxage=.*|proxy-revalidate)$/i

/** A new visit after 30 minutes without a request. */
export const VISIT_GAP_SECONDS = 30 * 60
/**
 * How stale `n_vis`'s time of the last request may grow before it is written again: a visitor
 * browsing gets the cookie once every five minutes, not with every page.
 */
export const VISIT_MARK_SECONDS = 5 * 60

const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Who sent a request, from its Cookie header: a device id, new unless it sent a valid one. */
export interface Visitor {
  /** The `care_did` it sent, valid or not ("" for none). */
  known: string
  deviceId: string
  /** The `n_vis` it sent. */
  visits: string | undefined
}

/** Whether `id` is a device id the worker keeps (else it draws a new one: a new visitor). */
export const isDeviceId = (id: string) => DEVICE_ID.test(id)

export function visitorOf(cookie: string | null): Visitor {
  const known = (cookie && parse(cookie, 'care_did').care_did) || ''
  return {
    known,
    deviceId: DEVICE_ID.test(known) ? known : crypto.randomUUID(),
    visits: cookie ? parse(cookie, 'n_vis').n_vis : undefined,
  }
}

/**
 * The Set-Cookie values of a response to `visitor` at `now` (unix seconds): `care_did` when it
 * is missing or not one of ours, `n_vis` when it is missing, starts a new visit or is due
 * (docs/pages.md, "Cookies"). A visitor whose cookies hold gets none.
 */
export function visitorCookiesOut(visitor: Visitor, now: number): string[] {
  const out: string[] = []
  if (visitor.deviceId !== visitor.known) out.push(cookie('care_did', visitor.deviceId))
  const visits = nextVisits(visitor.visits, now)
  if (visits !== null) out.push(cookie('n_vis', visits))
  return out
}

/**
 * Puts the visitor's cookies on a response's headers, and makes the response private: no shared
 * cache downstream may hand one visitor's cookies to another. The browser keeps what the policy
 * gave it (its max-age and stale windows); the edge cache has already stored its own copy,
 * without cookies and with the public policy.
 */
export function setVisitorCookies(headers: Headers, visitor: Visitor, now: number): void {
  const cookies = visitorCookiesOut(visitor, now)
  for (const value of cookies) headers.append('set-cookie', value)
  if (cookies.length) headers.set('cache-control', privateTo(headers.get('cache-control')))
}

/**
 * A Cache-Control value as only the browser may heed it. `no-store` stands as it is: no cache,
 * shared or not, keeps such a response.
 */
export function privateTo(cacheControl: string | null): string {
  const directives = (cacheControl ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && !SHARED_ONLY.test(d))
  if (directives.some((d) => d.toLowerCase() === 'no-store')) return directives.join(', ')
  return ['private', ...directives.filter((d) => d.toLowerCase() !== 'private')].join(', ')
}

/**
 * A visitor cookie's attributes, serialised once: what follows `name=value` is the same on
 * every one.
 */
const ATTRIBUTES = serialize('n', '', COOKIE_OPTIONS).slice('n='.length)

/** Both values (a UUID, `visits-time`) are made here of characters a cookie takes as they are. */
function cookie(name: string, value: string): string {
  return `${name}=${value}${ATTRIBUTES}`
}

/**
 * The n_vis value after a request at `now`, or null when the one sent still holds: its time
 * is less than VISIT_MARK_SECONDS old (so no new visit starts either, and its 400 days are
 * renewed at least every five minutes of browsing).
 */
export function nextVisits(cookie: string | undefined, now: number): string | null {
  const m = /^(\d{1,9})-(\d{1,12})$/.exec(cookie ?? '')
  const visits = m ? Number(m[1]) : 0
  const last = m ? Number(m[2]) : 0
  if (m && now - last < VISIT_MARK_SECONDS && now >= last) return null
  return `${now - last > VISIT_GAP_SECONDS ? visits + 1 : visits}-${now}`
}
