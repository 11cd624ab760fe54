import { sign } from 'hono/utils/jwt/jwt'
import { inject } from 'vitest'

/** The team and application of wrangler.toml's top-level vars, which the tests run with. */
export const TEAM = 'https://care-dev.cloudflareaccess.com'
export const AUDIENCE = 'development-ops-console'

/** People of the tests' OPS_ROLES (wrangler.toml): one per role. */
export const VIEWER = 'viewer@care.example'
export const PURGER = 'purger@care.example'
export const EDITOR = 'editor@care.example'

/**
 * A token as Cloudflare Access signs it, by the development key pair the tests' worker trusts
 * (vitest.config.ts), for `email`; `claims` and `key` change what a test needs wrong.
 */
export function accessToken(
  email: string,
  {
    claims = {},
    key,
  }: { claims?: Record<string, unknown>; key?: JsonWebKey & { kid: string } } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return sign(
    { aud: [AUDIENCE], iss: TEAM, email, iat: now - 5, exp: now + 3600, ...claims },
    key ?? inject('accessPrivateJwk'),
    'RS256',
  )
}

/** Another RSA key under the development key's id: what a forger would sign with. */
export async function anotherKey(): Promise<JsonWebKey & { kid: string }> {
  const pair = await rsaKeyPair()
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey
  return { ...jwk, kid: inject('accessPrivateJwk').kid, alg: 'RS256' }
}

/** A new RS256 key pair, as Access signs with. */
export async function rsaKeyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair
}
