import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { MAX_SYNC_BODY_BYTES } from '../../src/sync/enqueue'
import { MESSAGE_KINDS } from '../../src/sync/messages'
import { aMessage, EXAMPLES } from './examples'

// POST /__ops/catalog through the real worker, its queue and consumer as the pool runs them.

async function post(body: string, token = 'test-sync-token', address = '192.0.2.28') {
  const res = await exports.default.fetch(
    new Request('https://www.care.example/__ops/catalog', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'cf-connecting-ip': address,
      },
      body,
    }),
  )
  return { status: res.status, json: await res.json<Record<string, unknown>>() }
}

/** Asks again until `check` holds or about ten seconds have passed: the last answer. */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await ask()
  for (let i = 0; i < 100 && !check(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await ask()
  }
  return value
}

describe('POST /__ops/catalog', () => {
  it('takes the example of every kind, and the queue applies them', async () => {
    const ordered = MESSAGE_KINDS.filter((k) => !/removed|withdrawn|closed/.test(k))
    const { status, json } = await post(JSON.stringify(ordered.map((k) => EXAMPLES[k])))
    expect(status).toBe(202)
    expect(json.accepted).toBe(ordered.length)
    expect(json.kinds).toEqual(Object.fromEntries(ordered.map((k) => [k, 1])))
    const provider = () =>
      env.DB.prepare('SELECT review_count FROM providers WHERE id = 900000001').first()
    expect(await eventually(provider, (row) => row?.review_count === 1)).toEqual({
      review_count: 1,
    })

    const removals = MESSAGE_KINDS.filter((k) => /removed|withdrawn|closed/.test(k))
    const second = await post(JSON.stringify(removals.map((k) => EXAMPLES[k])))
    expect(second.status).toBe(202)
    expect(await eventually(provider, (row) => row === null)).toBeNull()
  })

  it('refuses a batch with every refused message and its reason, enqueuing nothing', async () => {
    const good = aMessage('activity.upserted', (m) => (m.id = 920000001))
    const bad = { ...aMessage('city.added'), kind: 'city.renamed' }
    const wrong = { ...aMessage('review.removed'), id: 'seven' }
    const { status, json } = await post(JSON.stringify([good, bad, wrong]))
    expect(status).toBe(422)
    expect(json.refused).toEqual([
      { index: 1, kind: 'city.renamed', id: 4212992, reasons: [expect.stringMatching(/^kind: /)] },
      { index: 2, kind: 'review.removed', id: null, reasons: [expect.stringMatching(/^id: /)] },
    ])
    await new Promise((resolve) => setTimeout(resolve, 2000))
    expect(
      await env.DB.prepare('SELECT id FROM activities WHERE id = 920000001').first(),
    ).toBeNull()
  })

  it('answers bad input with a clear 4xx, never a 500', async () => {
    const one = JSON.stringify(EXAMPLES['activity.removed'])
    const cases: [string, string, number][] = [
      ['not JSON', '{"kind":', 400],
      ['no array', one, 422],
      [
        'too large',
        `[${Array(Math.ceil(MAX_SYNC_BODY_BYTES / one.length) + 1)
          .fill(one)
          .join(',')}]`,
        413,
      ],
      ['10,000 messages', JSON.stringify(Array(10_000).fill({ kind: 'x' })), 422],
      ['wrong types', JSON.stringify([{ ...aMessage('activity.removed'), version: '1' }]), 422],
    ]
    for (const [what, body, expected] of cases) {
      const { status, json } = await post(body)
      expect([what, status, typeof json.error]).toEqual([what, expected, 'string'])
    }
  })

  it('refuses a wrong token, then locks its address out', async () => {
    const body = JSON.stringify([EXAMPLES['activity.removed']])
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await post(body, 'guess', '198.51.100.28')).status)
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5)).toEqual([429, 429])
    expect((await post(body)).status).toBe(202)
  })
})
