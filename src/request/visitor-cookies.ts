import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
import type { AppEnv } from '../env'
import { OPS_PREFIX } from '../urls/paths'
import { isPrefetch } from './prefetch'

/**
 * Secure, SameSite=Lax, Path=/ (and 400 days, the longest browsers keep): docs/pages.md,
 * "Cookies".
 */
export const COOKIE_OPTIONS: CookieOptions = {
  path: '/',
  secure: true,
  sameSite: 'Lax',
  maxAge: 400 * 86_400,
}

/** A new visit after 30 minutes without a request. */
export const VISIT_GAP_SECONDS = 30 * 60

const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Visitor cookies, added on the way out (after any cache, so no shared cache ever stores them):
 * `care_did` is set once, `n_vis` counts visits as `<visits>-<last request, unix seconds>`.
 * A prefetch counts no visit and leaves with no cookie at all.
 */
export const visitorCookies: MiddlewareHandler<AppEnv> = async (c, next) => {
  const known = getCookie(c, 'care_did') ?? ''
  const deviceId = DEVICE_ID.test(known) ? known : crypto.randomUUID()
  c.set('deviceId', deviceId)
  // Ops calls are not visits.
  if (c.req.path.startsWith(`${OPS_PREFIX}/`)) return next()
  await next()
  if (isPrefetch(c.req.raw.headers)) {
    c.header('set-cookie', undefined)
    return
  }
  const now = Math.floor(Date.now() / 1000)
  if (deviceId !== known) setCookie(c, 'care_did', deviceId, COOKIE_OPTIONS)
  setCookie(c, 'n_vis', nextVisits(getCookie(c, 'n_vis'), now), COOKIE_OPTIONS)
}

/** The n_vis value after a request at `now`. */
export function nextVisits(cookie: string | undefined, now: number): string {
  const m = /^(\d{1,9})-(\d{1,12})$/.exec(cookie ?? '')
  const visits = m ? Number(m[1]) : 0
  const last = m ? Number(m[2]) : 0
  return `${now - last > VISIT_GAP_SECONDS ? visits + 1 : visits}-${now}`
}
