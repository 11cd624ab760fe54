import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import type { CatalogMessage } from '../../src/sync/messages'
import worker from '../../src/worker'
import { withFaults } from '../support/with-faults'
import { aMessage } from './examples'
import { everyBinding } from '../support/databases'
import { everyDatabase } from '../support/builders'

// The queue consumer on the real local D1: a batch with a poison message, the dead-letter
// queue, D1 failing mid-batch. Sentry is the capture server of test/node/sentry-capture.ts.

const capture = inject('sentryOrigin')
// This file's own Sentry project: other files' reports must not count here.
const PROJECT = 28
const SENTRY_DSN = `${capture.replace('http://', 'http://public@')}/${PROJECT}`

let ids = 0
/** Queue messages of `bodies`, as the queue delivers them on their `attempt`. */
function delivered(bodies: unknown[], attempts = 1) {
  return bodies.map((body) => ({
    id: `m${++ids}`,
    timestamp: new Date(),
    attempts,
    body,
  }))
}

/** What the consumer did with each message (the pool's FetcherQueueResult). */
interface QueueResult {
  ackAll: boolean
  retryBatch: { retry: boolean }
  explicitAcks: string[]
  retryMessages: { msgId: string }[]
}

/** `bodies` delivered to the worker's queue() as a batch of `queue`. */
async function consume(
  queue: string,
  bodies: unknown[],
  bindings: Partial<Env> = {},
): Promise<QueueResult> {
  const batch = createMessageBatch(queue, delivered(bodies))
  const ctx = createExecutionContext()
  await worker.queue(batch, { ...env, SENTRY_DSN, ...bindings }, ctx)
  const result: unknown = await getQueueResult(batch, ctx)
  return result as QueueResult
}

/**
 * The first row `sql` reads on control or a shard, in that order (each table is on one of them,
 * or on both: control's answer then); null when none has one.
 */
async function row(sql: string, ...params: unknown[]): Promise<Record<string, unknown> | null> {
  for (const db of everyDatabase()) {
    const found = await db
      .prepare(sql)
      .bind(...params)
      .first()
      .catch((error: unknown) => {
        if (/no such table/.test(String(error))) return null
        throw error
      })
    if (found) return found
  }
  return null
}

const poison = (id: number) =>
  aMessage('job.upserted', (m) => {
    m.id = id
    m.entity.cityId = 999999999
  })

async function deadEvents(): Promise<Record<string, unknown>[]> {
  const envelopes = await (
    await fetch(`${capture}/envelopes`)
  ).json<{ project: string; body: string }[]>()
  return envelopes
    .filter((e) => e.project === String(PROJECT))
    .map((e) => JSON.parse(e.body.split('\n')[2] ?? '{}') as Record<string, unknown>)
}

describe('the catalog queue consumer', () => {
  it('applies the rest of a batch around a poison message, which it retries', async () => {
    const good: CatalogMessage[] = [
      aMessage('activity.upserted', (m) => (m.id = 910000001)),
      aMessage('provider.upserted', (m) => (m.id = 910000002)),
      aMessage('review.added', (m) => ((m.id = 910000003), (m.entity.providerId = 910000002))),
    ]
    const result = await consume('catalog-changes', [good[0], poison(910000004), ...good.slice(1)])
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([`m${ids - 2}`])
    expect(result.explicitAcks).toHaveLength(3)
    expect(await row('SELECT id FROM activities WHERE id = 910000001')).not.toBeNull()
    expect(await row('SELECT review_count FROM providers WHERE id = 910000002')).toEqual({
      review_count: 1,
    })
    expect(await row('SELECT id FROM jobs WHERE id = 910000004')).toBeNull()
  })

  it('records a dead message with the reason naming the field, and reports it to Sentry once', async () => {
    const result = await consume('catalog-changes-dead', [poison(910000101)])
    expect(result.ackAll).toBe(true)
    expect(await row("SELECT reason FROM sync_dead WHERE message LIKE '%910000101%'")).toEqual({
      reason: 'entity.cityId: city 999999999 is not in the catalog',
    })
    const events = (await deadEvents()).filter((e) => JSON.stringify(e).includes('999999999'))
    expect(events).toHaveLength(1)
    expect(events[0]?.tags).toMatchObject({ sync: 'dead', kind: 'job.upserted' })
  })

  it('applies a dead letter whose reference has arrived since, recording and reporting nothing', async () => {
    // A job in a city the catalog did not have: retried, then dead-lettered.
    const cityIdNow = 4_299_001
    const job = aMessage('job.upserted', (m) => {
      m.id = 910000151
      m.entity.cityId = cityIdNow
    })
    const first = await consume('catalog-changes', [job])
    expect(first.retryMessages).toHaveLength(1)
    expect(await row('SELECT id FROM jobs WHERE id = 910000151')).toBeNull()
    // The city arrives; then the dead-letter queue delivers the job to its consumer.
    await consume('catalog-changes', [
      aMessage('city.added', (m) => {
        m.id = cityIdNow
        m.entity.name = 'Dead Letter Falls'
      }),
    ])
    const result = await consume('catalog-changes-dead', [job])
    expect(result.ackAll).toBe(true)
    expect(await row('SELECT city_id FROM jobs WHERE id = 910000151')).toEqual({
      city_id: cityIdNow,
    })
    expect(await row("SELECT reason FROM sync_dead WHERE message LIKE '%910000151%'")).toBeNull()
    expect((await deadEvents()).filter((e) => JSON.stringify(e).includes('910000151'))).toEqual([])
  })

  it('records a malformed message as dead at once, never retried', async () => {
    const result = await consume('catalog-changes', [{ kind: 'job.upserted', id: 910000201 }])
    expect(result.explicitAcks).toHaveLength(1)
    expect(result.retryMessages).toEqual([])
    const dead = await row("SELECT reason FROM sync_dead WHERE message LIKE '%910000201%'")
    expect(String(dead?.reason)).toMatch(/^invalid: version: .*; entity: /)
  })

  it('when D1 fails mid-batch, applies nothing, retries the whole batch, then applies it once', async () => {
    const messages = [
      aMessage('provider.upserted', (m) => (m.id = 910000301)),
      aMessage('provider-service.offered', (m) => (m.id = 910000301)),
    ]
    const purges = async () => row('SELECT COUNT(*) AS n FROM purges')
    const before = await purges()
    // The real D1, one statement in the middle of the batch replaced by one that fails in SQLite.
    const failing = everyBinding((db) =>
      withFaults(db, {
        prepare: (prepare, sql) =>
          prepare(sql.startsWith('DELETE FROM job_city_stats') ? 'DELETE FROM no_such_table' : sql),
      }),
    )
    const failed = await consume('catalog-changes', messages, failing)
    expect(failed.retryMessages).toHaveLength(2)
    expect(await row('SELECT id FROM providers WHERE id = 910000301')).toBeNull()
    expect(await row("SELECT key FROM sync_versions WHERE key = 'provider:910000301'")).toBeNull()
    expect(await row('SELECT COUNT(*) AS n FROM sync_touched')).toEqual({ n: 0 })
    expect(await purges()).toEqual(before)

    const retried = await consume('catalog-changes', messages)
    expect(retried.explicitAcks).toHaveLength(2)
    expect(
      await row('SELECT provider_id FROM provider_services WHERE provider_id = 910000301'),
    ).not.toBeNull()
    const applied = await purges()
    // Delivered again (at least once): nothing changes, nothing more is purged.
    await consume('catalog-changes', messages)
    expect(await purges()).toEqual(applied)
  })

  it('never loses a change’s purge: a failing purge record on control retries the batch, its purge kept in the outbox', async () => {
    const message = aMessage('provider.upserted', (m) => (m.id = 910000401))
    const failing = everyBinding((db) =>
      withFaults(db, {
        prepare: (prepare, sql) =>
          prepare(
            sql.startsWith('INSERT INTO purges') ? 'INSERT INTO no_such_table VALUES (1)' : sql,
          ),
      }),
    )
    const failed = await consume('catalog-changes', [message], failing)
    expect(failed.retryMessages).toHaveLength(1)
    // Across databases the shard's part stands (docs/scale.md): the purge waits in its outbox.
    expect(await row("SELECT tag FROM purges WHERE tag = 'provider:910000401'")).toBeNull()
    expect(
      await row("SELECT seq FROM outbox WHERE body LIKE '%provider:910000401%'"),
    ).not.toBeNull()
    await consume('catalog-changes', [message])
    expect(await row('SELECT id FROM providers WHERE id = 910000401')).not.toBeNull()
    expect(await row("SELECT tag FROM purges WHERE tag = 'provider:910000401'")).not.toBeNull()
  })
})
