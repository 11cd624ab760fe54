import type { HonoJsonWebKey } from 'hono/utils/jwt/jws'
import { Kept } from '../lib/kept'

/** How long the team's keys are trusted before they are fetched again (Access rotates them). */
const KEYS_MAX_AGE_MS = 60 * 60 * 1000
/** After a failed fetch, how long before the next one: refusals meanwhile are 503s, not waits. */
const KEYS_RETRY_MS = 10 * 1000
/** A fetch of the keys not ended after this long has failed. */
const KEYS_GIVE_UP_MS = 5 * 1000
/**
 * At most one fetch a minute for a token signed by a key not among those kept (Access rotated
 * one in): a flood of tokens with made-up key ids costs the team's certs URL a fetch a minute.
 */
export const UNKNOWN_KID_REFETCH_MS = 60 * 1000

/** Where Access publishes a team's signing keys. */
export const certsUrl = (teamDomain: string) =>
  `${teamDomain.replace(/\/+$/, '')}/cdn-cgi/access/certs`

/** The team's keys, kept per isolate; `fetcher` is the global fetch but in tests of the keeping. */
export class AccessKeys {
  readonly #kept = new Kept<HonoJsonWebKey[]>({
    maxAgeMs: KEYS_MAX_AGE_MS,
    retryAfterMs: KEYS_RETRY_MS,
  })
  readonly #fetcher: typeof fetch
  readonly #now: () => number
  /** When an unknown key id last made the keys be fetched again. */
  #refetchedAt = -Infinity

  /** `fetcher` and `now` are the global fetch and clock but in tests of the keeping. */
  constructor(
    fetcher: typeof fetch = (input, init) => fetch(input, init),
    now: () => number = Date.now,
  ) {
    this.#fetcher = fetcher
    this.#now = now
  }

  /**
   * The keys to check a token signed by key `kid` against: the kept ones, fetched again first
   * when none is `kid` (Access rotates its keys) unless that was done less than
   * UNKNOWN_KID_REFETCH_MS ago. Callers meanwhile share the one fetch.
   */
  async forKid(
    env: Pick<Env, 'ACCESS_TEAM_DOMAIN' | 'ACCESS_JWKS'>,
    kid: string | undefined,
  ): Promise<HonoJsonWebKey[]> {
    const keys = await this.get(env)
    if (env.ACCESS_JWKS || keys.some((k) => k.kid === kid)) return keys
    if (this.#now() - this.#refetchedAt < UNKNOWN_KID_REFETCH_MS) return keys
    this.#refetchedAt = this.#now()
    this.#kept.expire()
    return this.get(env)
  }

  /**
   * The keys: the inline JWKS when one is configured (a development pair, never in a deployed
   * environment), else the team's, fetched from its certs URL and kept KEYS_MAX_AGE_MS.
   */
  get(env: Pick<Env, 'ACCESS_TEAM_DOMAIN' | 'ACCESS_JWKS'>): Promise<HonoJsonWebKey[]> {
    if (env.ACCESS_JWKS) return Promise.resolve(jwksKeys(JSON.parse(env.ACCESS_JWKS)))
    return this.#kept.get({
      read: async () => {
        const res = await this.#fetcher(certsUrl(env.ACCESS_TEAM_DOMAIN))
        if (!res.ok) throw new Error(`Access keys: ${res.status} from the team's certs URL`)
        return jwksKeys(await res.json())
      },
      // A failed fetch keeps the keys there were, KEYS_RETRY_MS: no fetch per request meanwhile.
      recover: (error, previous) => {
        if (previous === undefined) throw error
        return previous
      },
      giveUpMs: KEYS_GIVE_UP_MS,
    })
  }

  /** Forgets the kept keys, so a token signed by a key rotated in since is checked anew. */
  forget(): void {
    this.#kept.expire()
  }
}

function jwksKeys(jwks: unknown): HonoJsonWebKey[] {
  const keys = (jwks as { keys?: unknown } | null)?.keys
  if (!Array.isArray(keys)) throw new Error('Access keys: no "keys" array in the JWKS')
  return keys as HonoJsonWebKey[]
}
