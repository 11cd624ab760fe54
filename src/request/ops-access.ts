import type { Context, Handler } from 'hono'
import { getCookie } from 'hono/cookie'
import { verifyWithJwks } from 'hono/utils/jwt/jwt'
import type { AppEnv } from '../env'
import type { AccessKeys } from './access-keys'
import { fromOwnPages, readForm } from './form-post'

/**
 * Who may do what in the ops console, each role including the ones before it: a viewer looks,
 * a purger also purges, an editor also changes flags and replays dead letters.
 */
export const OPS_ROLES = ['viewer', 'purger', 'editor'] as const
export type OpsRole = (typeof OPS_ROLES)[number]

/** A person Cloudflare Access signed in, as the console knows them. */
export interface OpsPerson {
  email: string
  groups: string[]
  role: OpsRole
  /** The CSRF token every form of this person's pages carries (`csrfToken`). */
  csrf: string
}

/** The header Access adds to every request it lets through, and the cookie it sets in the browser. */
export const ACCESS_HEADER = 'cf-access-jwt-assertion'
export const ACCESS_COOKIE = 'CF_Authorization'

/** Why a request is refused: 401 (no valid token) or 403 (a valid one without the role). */
export interface AccessRefusal {
  status: 401 | 403 | 413 | 503
  reason: string
}

/** The claims of an Access token the console reads. */
interface AccessClaims {
  email?: unknown
  groups?: unknown
  custom?: { groups?: unknown }
  exp?: unknown
}

/**
 * The person behind a request's Access token, or why there is none. The token is checked here,
 * never trusted from the edge alone: RS256 signature against the team's keys, the audience of
 * this application, the team as issuer, an expiry that has not passed.
 */
export async function accessPerson(
  token: string | undefined,
  env: Pick<Env, 'ACCESS_TEAM_DOMAIN' | 'ACCESS_AUD' | 'ACCESS_JWKS' | 'OPS_ROLES' | 'ENVIRONMENT'>,
  keys: AccessKeys,
): Promise<OpsPerson | AccessRefusal> {
  if (!token) return { status: 401, reason: 'no Cloudflare Access token' }
  if (env.ACCESS_JWKS && isDeployed(env.ENVIRONMENT))
    return { status: 503, reason: 'a development key is configured in a deployed environment' }
  let claims: AccessClaims
  try {
    const found = await keys.forKid(env, keyIdOf(token))
    claims = await verifyWithJwks(token, {
      keys: found,
      allowedAlgorithms: ['RS256'],
      verification: { aud: env.ACCESS_AUD, iss: env.ACCESS_TEAM_DOMAIN.replace(/\/+$/, '') },
    })
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('Access keys'))
      return { status: 503, reason: 'the team’s keys could not be fetched' }
    return {
      status: 401,
      reason: `token refused (${error instanceof Error ? error.name : 'invalid'})`,
    }
  }
  if (typeof claims.exp !== 'number') return { status: 401, reason: 'token without expiry' }
  if (typeof claims.email !== 'string' || !claims.email)
    return { status: 401, reason: 'token without an email' }
  const groups = groupsOf(claims)
  const email = claims.email.toLowerCase()
  return { email, groups, role: roleOf(email, groups, env.OPS_ROLES), csrf: await csrfToken(token) }
}

/** The `kid` of a token's header, if it names one (the signature is checked after). */
function keyIdOf(token: string): string | undefined {
  try {
    const header: unknown = JSON.parse(
      atob((token.split('.')[0] ?? '').replace(/-/g, '+').replace(/_/g, '/')),
    )
    const kid = (header as { kid?: unknown } | null)?.kid
    return typeof kid === 'string' ? kid : undefined
  } catch {
    return undefined
  }
}

const isDeployed = (environment: string) =>
  environment === 'production' || environment === 'staging'

function groupsOf(claims: AccessClaims): string[] {
  const groups = claims.groups ?? claims.custom?.groups
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : []
}

/**
 * A person's role from OPS_ROLES, `editor=lead@care.example,group:ops-leads; purger=group:ops`:
 * the highest role naming their email or one of their groups; anyone else Access lets in views.
 */
export function roleOf(email: string, groups: readonly string[], configured: string): OpsRole {
  let role: OpsRole = 'viewer'
  for (const clause of configured.split(';')) {
    const [name = '', members = ''] = clause.split('=', 2).map((s) => s.trim())
    if (!(OPS_ROLES as readonly string[]).includes(name)) continue
    const named = members.split(',').map((m) => m.trim().toLowerCase())
    const hit = named.some((m) =>
      m.startsWith('group:') ? groups.some((g) => g.toLowerCase() === m.slice(6)) : m === email,
    )
    if (hit && OPS_ROLES.indexOf(name as OpsRole) > OPS_ROLES.indexOf(role)) role = name as OpsRole
  }
  return role
}

/**
 * The CSRF token of a session: a digest of its Access token. Only the person's browser holds
 * that token (an HttpOnly cookie, or the header Access adds), so another site cannot know it, and
 * no state is kept. A form from before Access renewed the token is refused and shown again.
 */
export async function csrfToken(accessToken: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`ops-console-csrf:${accessToken}`),
  )
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** The request's Access token: the header Access adds, else its cookie. */
export function accessToken(c: Context<AppEnv>): string | undefined {
  return c.req.header(ACCESS_HEADER) ?? getCookie(c, ACCESS_COOKIE)
}

/** Whether `role` includes `needed`. */
export const allows = (role: OpsRole, needed: OpsRole) =>
  OPS_ROLES.indexOf(role) >= OPS_ROLES.indexOf(needed)

/** A console handler: the request's context, the person it is for, a POST's form fields. */
export type PersonHandler = (
  c: Context<AppEnv>,
  person: OpsPerson,
  form: URLSearchParams,
) => Promise<Response>

/** The largest console form read: a purge names a few lines, a flag document a few KB. */
const MAX_FORM_BYTES = 32 * 1024

/**
 * A console handler behind Access: the person must hold a valid token and `needed`; a POST must
 * also carry their CSRF token (`csrf` field). Refusals are plain pages that change nothing.
 */
export function withAccess(needed: OpsRole, handler: PersonHandler): Handler<AppEnv> {
  return async (c) => {
    const person = await accessPerson(accessToken(c), c.env, c.get('memory').accessKeys)
    if ('status' in person) return refuse(c, person)
    if (!allows(person.role, needed))
      return refuse(c, {
        status: 403,
        reason: `${person.email} is a ${person.role}, not a ${needed}`,
      })
    if (c.req.method !== 'POST') return handler(c, person, new URLSearchParams())
    const { fields, complete } = await readForm(c.req.raw, MAX_FORM_BYTES)
    if (!complete) return refuse(c, { status: 413, reason: `a form over ${MAX_FORM_BYTES} bytes` })
    if (!fromOwnPages(c) || fields.get('csrf') !== person.csrf)
      return refuse(c, {
        status: 403,
        reason: 'the form’s CSRF token is missing or stale: open the page again',
      })
    return handler(c, person, fields)
  }
}

/** The headers of every console answer: never stored, never indexed, its own strict policy. */
export function consoleHeaders(nonce: string): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      // The islands' one script, by the response's nonce, and the JSON it fetches.
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  }
}

function refuse(c: Context<AppEnv>, { status, reason }: AccessRefusal): Response {
  const headers = { ...consoleHeaders(c.get('nonce')), 'content-type': 'text/plain; charset=utf-8' }
  return new Response(`${status}: ${reason}\n`, { status, headers })
}
