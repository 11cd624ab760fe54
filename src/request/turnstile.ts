// Cloudflare Turnstile on the guest message form (docs/hardening.md, "Turnstile"): the token its
// widget put in the form, verified by its siteverify endpoint.

/** The form field Turnstile's widget fills. */
export const TURNSTILE_FIELD = 'cf-turnstile-response'

/** Turnstile's tokens are at most this long (its documentation). */
const MAX_TOKEN = 2048

/** How long siteverify may take before a post is counted as one without a token. */
export const VERIFY_DEADLINE_MS = 3_000

/**
 * What the token of a post says: `passed` (a person, by Turnstile), `failed` (siteverify refused
 * it: made up, expired, used twice), `absent` (no token: no JavaScript, a script, or Turnstile
 * not configured) or `unavailable` (siteverify did not answer in time).
 */
export type Verification = 'passed' | 'failed' | 'absent' | 'unavailable'

export interface TurnstileConfig {
  /** TURNSTILE_SECRET_KEY; empty: every post is one without a token. */
  secret: string | undefined
  /** TURNSTILE_VERIFY_URL: siteverify, or its stand-in on 127.0.0.1. */
  verifyUrl: string
}

/** Asks siteverify about `token`, sent from `remoteIp`. Never throws. */
export async function verifyTurnstile(
  token: string,
  remoteIp: string | undefined,
  { secret, verifyUrl }: TurnstileConfig,
): Promise<Verification> {
  if (!token || !secret) return 'absent'
  if (token.length > MAX_TOKEN) return 'failed'
  const body = new URLSearchParams({ secret, response: token })
  if (remoteIp) body.set('remoteip', remoteIp)
  try {
    const res = await fetch(verifyUrl, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(VERIFY_DEADLINE_MS),
    })
    if (!res.ok) return 'unavailable'
    const answer = await res.json<{ success?: unknown }>()
    return answer.success === true ? 'passed' : 'failed'
  } catch {
    return 'unavailable'
  }
}
