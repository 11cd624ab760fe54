import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { MAX_SYNC_BODY_BYTES } from '../../src/sync/enqueue'
import { MESSAGE_KINDS } from '../../src/sync/messages'
import worker from '../../src/worker'
import { withFaults } from '../support/with-faults'
import { fromShards } from '../support/databases'
import { aMessage, EXAMPLES } from './examples'

// POST /__ops/catalog through the real worker, its queue and consumer as the pool runs them.

async function post(
  body: string,
  token = 'test-sync-token',
  address = '192.0.2.28',
  bindings: Partial<Env> = {},
) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request('https://www.care.example/__ops/catalog', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'cf-connecting-ip': address,
      },
      body,
    }),
    { ...env, ...bindings },
    ctx,
  )
  const json = await res.json<Record<string, unknown>>()
  await waitOnExecutionContext(ctx)
  return { status: res.status, json }
}

/** The real queue, with every message sent through it listed. */
function recordedQueue() {
  const sent: unknown[] = []
  const queue = withFaults(env.CATALOG_CHANGES, {
    send: (send, body, options) => (sent.push(body), send(body, options)),
    sendBatch: (sendBatch, messages, options) => (
      sent.push(...[...messages].map((m) => m.body)),
      sendBatch(messages, options)
    ),
  })
  return { sent, queue }
}

/**
 * Asks until `check` holds: a poll that ends as the queue's consumer has done its work, with a
 * ceiling that fails loudly (never a wait to show that something did not happen).
 */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await ask()
      if (!check(value)) throw new Error(`not yet: ${JSON.stringify(value)}`)
      return value
    },
    { timeout: 30_000, interval: 50 },
  )
}

describe('POST /__ops/catalog', () => {
  it('takes the example of every kind, and the queue applies them', async () => {
    const ordered = MESSAGE_KINDS.filter((k) => !/removed|withdrawn|closed/.test(k))
    // Through the real queue, every message listed as it is sent (the refusal below counts on it).
    const { sent, queue } = recordedQueue()
    const { status, json } = await post(
      JSON.stringify(ordered.map((k) => EXAMPLES[k])),
      undefined,
      undefined,
      { CATALOG_CHANGES: queue },
    )
    expect(status).toBe(202)
    expect(sent).toEqual(ordered.map((k) => EXAMPLES[k]))
    expect(json.accepted).toBe(ordered.length)
    expect(json.kinds).toEqual(Object.fromEntries(ordered.map((k) => [k, 1])))
    // Wherever its city's shard is.
    const provider = async () =>
      (
        await fromShards<{ review_count: number }>(
          'SELECT review_count FROM providers WHERE id = 900000001',
        )
      )[0] ?? null
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
    const { sent, queue } = recordedQueue()
    const { status, json } = await post(JSON.stringify([good, bad, wrong]), undefined, undefined, {
      CATALOG_CHANGES: queue,
    })
    expect(status).toBe(422)
    expect(json.refused).toEqual([
      { index: 1, kind: 'city.renamed', id: 4212992, reasons: [expect.stringMatching(/^kind: /)] },
      { index: 2, kind: 'review.removed', id: null, reasons: [expect.stringMatching(/^id: /)] },
    ])
    // Refused before the queue: not one message sent to it, so none can ever be applied.
    expect(sent).toEqual([])
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
