import { describe, expect, it } from 'vitest'
import { AccessKeys, certsUrl } from '../../src/request/access-keys'
import { roleOf } from '../../src/request/ops-access'

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
