import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import worker from '../../src/worker'
import { ORIGIN } from '../support/fetch-page'

// HTTP's authentication scheme is case-insensitive (RFC 9110, section 11.1): both ops endpoints
// take `bearer`, `BEARER` or `Bearer`, and such a call is no failed attempt of its address.

const ENDPOINTS = [
  { path: '/__ops/purge', token: 'test-ops-token', body: { tags: ['city:nowhere'] }, ok: 200 },
  {
    path: '/__ops/catalog',
    token: 'test-sync-token',
    body: [{ kind: 'activity.removed', id: 930000001, version: 1 }],
    ok: 202,
  },
] as const

async function call(path: string, authorization: string, body: unknown, address: string) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', 'cf-connecting-ip': address },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  )
  await res.body?.cancel()
  await waitOnExecutionContext(ctx)
  return res.status
}

describe.each(ENDPOINTS)('$path', ({ path, token, body, ok }) => {
  it('takes the bearer scheme in any case, never counting it as a failure', async () => {
    const address = path.endsWith('purge') ? '198.51.100.201' : '198.51.100.202'
    const spellings = ['bearer', 'BEARER', 'beaRer', 'Bearer']
    // More calls than the five failures a minute an address may make before it is locked out.
    const statuses: number[] = []
    for (const scheme of [...spellings, ...spellings])
      statuses.push(await call(path, `${scheme} ${token}`, body, address))
    expect(statuses).toEqual(Array<number>(8).fill(ok))
  })

  it('still refuses another scheme or a wrong token', async () => {
    const address = path.endsWith('purge') ? '198.51.100.203' : '198.51.100.204'
    expect(await call(path, `Basic ${token}`, body, address)).toBe(401)
    expect(await call(path, 'bearer wrong', body, address)).toBe(401)
  })
})
