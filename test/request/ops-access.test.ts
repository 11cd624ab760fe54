import { sign } from 'hono/utils/jwt/jwt'
import { describe, expect, it } from 'vitest'
import { AccessKeys, certsUrl, UNKNOWN_KID_REFETCH_MS } from '../../src/request/access-keys'
import { accessPerson, roleOf } from '../../src/request/ops-access'
import { AUDIENCE, rsaKeyPair, TEAM as TEAM_DOMAIN } from '../support/access'

const TEAM = { ACCESS_TEAM_DOMAIN: 'https://care.cloudflareaccess.com/', ACCESS_JWKS: '' }
const JWKS = { keys: [{ kty: 'RSA', kid: 'a', n: 'x', e: 'AQAB' }] }

describe('the Access team keys', () => {
  it('are fetched from the team domain’s certs URL once, and kept until forgotten', async () => {
    const asked: string[] = []
    const keys = new AccessKeys((input) => {
      asked.push(input instanceof Request ? input.url : input.toString())
      return Promise.resolve(Response.json(JWKS))
    })
    expect(await keys.get(TEAM)).toEqual(JWKS.keys)
    expect(await keys.get(TEAM)).toEqual(JWKS.keys)
    expect(asked).toEqual(['https://care.cloudflareaccess.com/cdn-cgi/access/certs'])
    keys.forget()
    await keys.get(TEAM)
    expect(asked).toHaveLength(2)
  })

  it('come from the inline JWKS when one is configured, with no fetch', async () => {
    const keys = new AccessKeys(() => Promise.reject(new Error('no network here')))
    expect(await keys.get({ ...TEAM, ACCESS_JWKS: JSON.stringify(JWKS) })).toEqual(JWKS.keys)
  })

  it('fail when the team answers no JWKS', async () => {
    const keys = new AccessKeys(() => Promise.resolve(new Response('down', { status: 502 })))
    await expect(keys.get(TEAM)).rejects.toThrow(/Access keys: 502/)
    expect(certsUrl('https://t.cloudflareaccess.com')).toBe(
      'https://t.cloudflareaccess.com/cdn-cgi/access/certs',
    )
  })
})

describe('roles', () => {
  const configured = 'editor=lead@care.example,group:ops-leads; purger=group:ops'
  it('are the highest role naming the person or one of their groups; anyone else views', () => {
    expect(roleOf('lead@care.example', [], configured)).toBe('editor')
    expect(roleOf('sam@care.example', ['ops'], configured)).toBe('purger')
    expect(roleOf('sam@care.example', ['ops', 'OPS-LEADS'], configured)).toBe('editor')
    expect(roleOf('someone@care.example', ['sales'], configured)).toBe('viewer')
    expect(roleOf('someone@care.example', [], 'admin=someone@care.example')).toBe('viewer')
  })
})

/** A key pair named `kid`: its public JWK for the JWKS, its private one to sign with. */
async function keyPair(kid: string) {
  const pair = await rsaKeyPair()
  const jwk = async (key: CryptoKey) => ({
    ...((await crypto.subtle.exportKey('jwk', key)) as JsonWebKey),
    kid,
    alg: 'RS256',
  })
  return { public: await jwk(pair.publicKey), private: await jwk(pair.privateKey) }
}

describe('a key Access rotated in', () => {
  const env = {
    ACCESS_TEAM_DOMAIN: TEAM_DOMAIN,
    ACCESS_AUD: AUDIENCE,
    ACCESS_JWKS: '',
    OPS_ROLES: '',
    ENVIRONMENT: 'test',
  }
  const token = (key: JsonWebKey & { kid: string }) => {
    const now = Math.floor(Date.now() / 1000)
    const claims = { aud: [AUDIENCE], iss: TEAM_DOMAIN, email: 'sam@care.example', exp: now + 600 }
    return sign(claims, key, 'RS256')
  }

  /** The team's certs URL stood in for: it serves `published` and counts its fetches. */
  function certs(published: { keys: JsonWebKey[] }) {
    const fetched = { count: 0 }
    const fetcher = () => {
      fetched.count++
      return Promise.resolve(Response.json(published))
    }
    return { fetched, fetcher }
  }

  it('is fetched once when a token names a key id not kept, and the token accepted', async () => {
    const [old, rotated] = await Promise.all([keyPair('old'), keyPair('rotated')])
    const published = { keys: [old.public] }
    const { fetched, fetcher } = certs(published)
    const keys = new AccessKeys(fetcher)
    expect(await accessPerson(await token(old.private), env, keys)).toMatchObject({
      email: 'sam@care.example',
    })
    expect(fetched.count).toBe(1)
    published.keys = [old.public, rotated.public]
    expect(await accessPerson(await token(rotated.private), env, keys)).toMatchObject({
      email: 'sam@care.example',
    })
    expect(fetched.count).toBe(2)
    // Now kept: no fetch for the next.
    await accessPerson(await token(rotated.private), env, keys)
    expect(fetched.count).toBe(2)
  })

  it('is fetched at most once a minute for a flood of made-up key ids, each refused', async () => {
    const known = await keyPair('known')
    const { fetched, fetcher } = certs({ keys: [known.public] })
    let now = 1_000_000
    const keys = new AccessKeys(fetcher, () => now)
    await accessPerson(await token(known.private), env, keys)
    const madeUp = await Promise.all(
      Array.from({ length: 3 }, async (_, i) => (await keyPair(`made-up-${i}`)).private),
    )
    const flood = await Promise.all(
      Array.from({ length: 30 }, async (_, i) =>
        accessPerson(await token(madeUp[i % 3] ?? known.private), env, keys),
      ),
    )
    expect(flood.every((r) => 'status' in r && r.status === 401)).toBe(true)
    expect(fetched.count).toBe(2)
    now += UNKNOWN_KID_REFETCH_MS - 1
    await accessPerson(await token(madeUp[0] ?? known.private), env, keys)
    expect(fetched.count).toBe(2)
    now += 1
    await accessPerson(await token(madeUp[0] ?? known.private), env, keys)
    expect(fetched.count).toBe(3)
  })

  it('keeps the keys there were when the fetch fails', async () => {
    const known = await keyPair('known')
    let up = true
    let fetches = 0
    const keys = new AccessKeys(() => {
      fetches++
      return Promise.resolve(
        up ? Response.json({ keys: [known.public] }) : new Response('down', { status: 502 }),
      )
    })
    await accessPerson(await token(known.private), env, keys)
    up = false
    const unknown = await keyPair('unknown')
    expect(await accessPerson(await token(unknown.private), env, keys)).toMatchObject({
      status: 401,
    })
    // The known key still signs in, with no fetch while the failure is kept.
    expect(await accessPerson(await token(known.private), env, keys)).toMatchObject({
      email: 'sam@care.example',
    })
    expect(fetches).toBe(2)
  })
})
