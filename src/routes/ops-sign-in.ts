import type { Context } from 'hono'
import { setCookie } from 'hono/cookie'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { ACCESS_COOKIE, accessPerson, consoleHeaders } from '../request/ops-access'
import { OPS_CONSOLE } from '../urls/paths'

/**
 * GET /__ops/sign-in?token=: where there is no Access (`npm start`), what its login does: a token
 * the development pair signed (`npm start` prints one per role) is checked as any other and
 * kept as Access's cookie. Without a development key (every deployed environment) there is no
 * such page: Access itself signs people in.
 */
export async function opsSignIn(c: Context<AppEnv>): Promise<Response> {
  if (!c.env.ACCESS_JWKS) throw new HTTPException(404)
  const token = c.req.query('token')
  const person = await accessPerson(token, c.env, c.get('memory').accessKeys)
  const headers = { ...consoleHeaders(c.get('nonce')), 'content-type': 'text/plain; charset=utf-8' }
  if ('status' in person)
    return new Response(`${person.status}: ${person.reason}\n`, { status: person.status, headers })
  setCookie(c, ACCESS_COOKIE, token ?? '', {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  })
  return c.redirect(OPS_CONSOLE, 303)
}
