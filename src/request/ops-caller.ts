import type { Context } from 'hono'
import { FAILURE_WINDOW_S, overFailureLimit, tokenName } from '../cache/purge'
import type { AppEnv } from '../env'

/** Who called an ops endpoint: its token's name, or the answer refusing it. */
export type OpsCaller = { who: string } | { refusal: Response; locked: boolean }

/**
 * The caller of an ops endpoint (`/__ops/purge`, `/__ops/catalog`), by its bearer token among
 * `configured` (`name=token,…`). A valid token is checked first, so an operator is never limited.
 * A missing or wrong one counts as a failure of its caller's address (an IPv6 caller's /64) in
 * `failures`: 401 while under the limit, 429 once over (or when the limit cannot be asked).
 */
export async function opsCaller(
  c: Context<AppEnv>,
  configured: string | undefined,
  failures: RateLimit,
  endpoint: string,
): Promise<OpsCaller> {
  const who = await tokenName(c.req.header('authorization'), configured)
  if (who) return { who }
  const locked = await overFailureLimit(failures, c.req.header('cf-connecting-ip'), (error) =>
    c.get('reporter').problem(`${endpoint}: failure rate limit unavailable`, { error }),
  )
  const headers = { 'cache-control': 'no-store' }
  const refusal = locked
    ? c.json({ error: 'too many failed attempts' }, 429, {
        ...headers,
        'retry-after': String(FAILURE_WINDOW_S),
      })
    : c.json({ error: 'unauthorized' }, 401, { ...headers, 'www-authenticate': 'Bearer' })
  return { refusal, locked }
}
