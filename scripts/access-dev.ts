// The development key pair that stands in for Cloudflare Access wherever there is no Access:
// `npm start`, the tests, screenshots and the audit. Its public half goes to the worker as
// ACCESS_JWKS; its private half signs tokens as Access would, for the people of wrangler.toml's
// OPS_ROLES. No network: the worker never fetches keys while ACCESS_JWKS is set.
import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { sign } from 'hono/utils/jwt/jwt'

/** A key pair as JWKs: the public half in a JWKS, the private half to sign with. */
export interface DevelopmentKeys {
  jwks: string
  privateJwk: JsonWebKey & { kid: string }
}

/** The team and application the development tokens name: wrangler.toml's top-level vars. */
export const DEV_TEAM_DOMAIN = 'https://care-dev.cloudflareaccess.com'
export const DEV_AUDIENCE = 'development-ops-console'

/** The people of wrangler.toml's development OPS_ROLES, one per role. */
export const DEV_PEOPLE = {
  viewer: 'viewer@care.example',
  purger: 'purger@care.example',
  editor: 'editor@care.example',
} as const

/** Where `npm start` keeps its pair, for the screenshots, the audit and a person's sign-in. */
export const DEV_KEYS_FILE = '.wrangler/access-dev-keys.json'

/** A new RSA key pair, named `kid`. */
export function newDevelopmentKeys(kid = 'development'): DevelopmentKeys {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pub = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }
  const priv = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256' }
  return {
    jwks: JSON.stringify({ keys: [pub] }),
    privateJwk: priv as DevelopmentKeys['privateJwk'],
  }
}

/** The pair kept in `file`, made the first time. */
export function developmentKeys(file: string): DevelopmentKeys {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevelopmentKeys
  const keys = newDevelopmentKeys()
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  return keys
}

/** A token as Access would sign it for `email`, valid `hours`. */
export function developmentToken(
  keys: DevelopmentKeys,
  email: string,
  { hours = 12, groups = [] as string[] } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return sign(
    {
      aud: [DEV_AUDIENCE],
      iss: DEV_TEAM_DOMAIN,
      email,
      groups,
      iat: now,
      nbf: now,
      exp: now + hours * 3600,
      sub: email,
      type: 'app',
    },
    keys.privateJwk,
    'RS256',
  )
}
