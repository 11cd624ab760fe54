// The sync routed across databases (docs/sync.md, "Across databases"): the same batches applied,
// routed, to control and the shards of this layout and, with no fault, of the other layout (one
// shard beside two: test/support/snapshot-worker.ts) leave the same rows, each where it lives;
// and when a shard or control fails (injected through its binding), nothing is lost, a retry
// applies each part once, and control's outbox rows wait on the shards.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { buildDirectory } from '../../scripts/import/sharded'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'
import type { CatalogMessage } from '../../src/sync/messages'
import type { OutboxRow } from '../../src/sync/outbox'
import { applyRouted, controlStatements, flushOutboxes } from '../../src/sync/routed-apply'
import { dumpDatabase, restoreDatabase } from '../support/snapshot'
import { otherLayout } from '../support/snapshot-worker'
import { newestVersions } from '../support/versions'
import { withFaults } from '../support/with-faults'
import { aMessage } from './examples'
import type { Draft } from './examples'

// Each check applies the test's batches again on the other layout: more than the default time.
vi.setConfig({ testTimeout: 60_000 })

const databases = databasesOf(env)
// A move between shards, and a shard failing beside one that does not, exist only with two
// shards or more: those tests are skipped on the one-shard layout (docs/testing.md).
const two = databases.shards.length >= 2

const CITIES = {
  atlanta: { id: 4180439, name: 'Atlanta', stateCode: 'GA', lat: 33.749, lng: -84.388 },
  pineMountain: { id: 4212992, name: 'Pine Mountain', stateCode: 'GA', lat: 32.865, lng: -84.854 },
  boston: { id: 4930956, name: 'Boston', stateCode: 'MA', lat: 42.358, lng: -71.06 },
  denver: { id: 5419384, name: 'Denver', stateCode: 'CO', lat: 39.739, lng: -104.985 },
}
type City = keyof typeof CITIES

const city = (name: City) =>
  aMessage('city.added', (m) => {
    const { id, ...entity } = CITIES[name]
    Object.assign(m, { id, version: 1 })
    Object.assign(m.entity, { ...entity, population: 1000 + (id % 1000) })
  })

let version = 10
const next = (m: Draft, id: number) => Object.assign(m, { id, version: version++ })

const provider = (id: number, at: City, years = 6) =>
  aMessage('provider.upserted', (m) => {
    next(m, id)
    Object.assign(m.entity, { cityId: CITIES[at].id, yearsExperience: years, firstName: `P${id}` })
  })
const listing = (id: number, service: string, rateMin: number) =>
  aMessage('provider-service.offered', (m) => {
    next(m, id)
    Object.assign(m, { service })
    Object.assign(m.entity, { rateMin, rateMax: rateMin + 7 })
  })
const review = (id: number, providerId: number, rating: number) =>
  aMessage('review.added', (m) => {
    next(m, id)
    Object.assign(m.entity, { providerId, rating })
  })
const job = (id: number, at: City, kind: 'job.upserted' | 'job.closed' = 'job.upserted') =>
  aMessage(kind, (m) => {
    next(m, id)
    Object.assign(m.entity, { cityId: CITIES[at].id })
  })
const removal = (kind: 'provider.removed' | 'review.removed' | 'activity.removed', id: number) =>
  aMessage(kind, (m) => next(m, id))
const withdrawal = (id: number, service: string) =>
  aMessage('provider-service.withdrawn', (m) => Object.assign(next(m, id), { service }))
const activity = (id: number) => aMessage('activity.upserted', (m) => next(m, id))

/** The batches both ways apply: cities and people, then reviews and edits, then a move and removals. */
function batches(): CatalogMessage[][] {
  version = 10
  return [
    [...(Object.keys(CITIES) as City[]).map(city), activity(900000001)],
    [
      provider(900000001, 'atlanta'),
      provider(900000002, 'pineMountain', 12),
      provider(900000003, 'denver', 2),
      provider(900000004, 'boston'),
      listing(900000001, 'babysitters', 18),
      listing(900000001, 'nannies', 22),
      listing(900000002, 'babysitters', 20),
      listing(900000003, 'babysitters', 15),
      listing(900000004, 'babysitters', 25),
      job(900000001, 'atlanta'),
      job(900000002, 'denver'),
    ],
    [
      review(900000001, 900000001, 5),
      review(900000002, 900000002, 3),
      review(900000003, 900000003, 4),
      listing(900000002, 'babysitters', 30),
      provider(900000004, 'boston', 15),
      job(900000001, 'atlanta', 'job.closed'),
    ],
    [
      // Atlanta is on the first shard, Pine Mountain and Denver on the second: moves between shards.
      provider(900000001, 'pineMountain'),
      job(900000002, 'atlanta'),
      removal('provider.removed', 900000003),
      removal('review.removed', 900000002),
      withdrawal(900000004, 'babysitters'),
      removal('activity.removed', 900000001),
    ],
    [
      listing(900000001, 'nannies', 26),
      review(900000004, 900000001, 2),
      job(900000002, 'atlanta', 'job.closed'),
    ],
  ]
}

/** Each batch's moment: 40 s apart, so the coalesced purges come due on the way. */
const moment = (i: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, 40 * i))

/** Every row gone, the sitemap blocks as the migrations start them. */
async function wipe(db: D1Database): Promise<void> {
  const tables = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'sitemap_caps')`,
    )
    .raw<[string]>()
  // What refers to providers and cities first.
  const last = ['providers', 'jobs', 'cities']
  const order = (name: string) => last.indexOf(name)
  tables.sort(([a], [b]) => order(a) - order(b))
  await db.batch(tables.map(([name]) => db.prepare(`DELETE FROM ${name}`)))
  if (tables.some(([name]) => name === 'sitemap_blocks'))
    await db.batch([
      db.prepare('DELETE FROM sitemap_blocks'),
      db.prepare(
        'INSERT INTO sitemap_blocks SELECT source, -9223372036854775808, 0 FROM sitemap_caps',
      ),
    ])
}

/** The rows of `table` on `dbs`, each as JSON (without `drop`), sorted. */
async function rowsOf(dbs: readonly D1Database[], table: string, drop: string[] = []) {
  const all = await Promise.all(dbs.map((db) => db.prepare(`SELECT * FROM ${table}`).all()))
  return all
    .flatMap(({ results }) => results)
    .map((row) => {
      for (const column of drop) delete row[column]
      return JSON.stringify(row)
    })
    .sort()
}

const shards = (table: string) => rowsOf(databases.shards, table)
const control = (table: string, drop: string[] = []) => rowsOf([databases.control], table, drop)

/** Every batch applied in this test, with its moment: what the other layout applies. */
let applied: { batch: readonly CatalogMessage[]; at: Date }[] = []

/**
 * The rows a layout's databases hold, as the checks below compare them: the shards' together,
 * control's, and the cities of every database.
 */
async function rowsHeld(at: Databases) {
  const shards = (table: string) => rowsOf(at.shards, table)
  const control = (table: string, drop: string[] = []) => rowsOf([at.control], table, drop)
  const held: Record<string, string[]> = {}
  for (const table of ['providers', 'provider_services', 'reviews', 'jobs'])
    held[`shards ${table}`] = await shards(table)
  for (const table of [
    'service_city_stats',
    'job_city_stats',
    'city_service_mixes',
    'rate_experience_stats',
  ]) {
    held[`control ${table}`] = await control(table)
    held[`shards ${table}`] = await shards(table)
  }
  for (const table of [
    'cities',
    'activities',
    'activity_stats',
    'activity_ends',
    'service_state_stats',
    'rate_experience_state_stats',
    'sitemap_blocks',
  ])
    held[`control ${table}`] = await control(table)
  for (const table of ['purges', 'pending_purges', 'city_additions'])
    held[`control ${table}`] = await control(table, ['seq'])
  held.versions = newestVersions([
    ...(await control('sync_versions')),
    ...(await shards('sync_versions')),
  ])
  const ids = async (sql: string) =>
    (await at.control.prepare(sql).raw<[number]>()).flat().map(String)
  held['provider directory'] = await ids('SELECT id FROM provider_directory ORDER BY id')
  held['job directory'] = await ids('SELECT id FROM job_directory ORDER BY id')
  held.tombstones = await ids('SELECT key FROM directory_tombstones ORDER BY key')
  const tags = async (db: D1Database) =>
    (
      await db
        .prepare('SELECT tag FROM purges UNION SELECT tag FROM pending_purges')
        .raw<[string]>()
    ).flat()
  held['purged tags'] = await tags(at.control)
  return held
}

/**
 * What the other layout holds after `applied`, each batch at its moment with no fault: the
 * databases' rows put aside, emptied, the batches applied, read, and the rows put back.
 */
async function otherLayoutHolds() {
  const bindings = ['CONTROL', 'SHARD_00', 'SHARD_01'] as const
  const saved = await Promise.all(bindings.map((b) => dumpDatabase(env[b])))
  for (const b of bindings) await wipe(env[b])
  try {
    const other = databasesOf({ ...env, SHARD_LAYOUT: otherLayout(env.SHARD_LAYOUT) })
    for (const { batch, at } of applied)
      expect((await applyRouted(other, batch, { now: at })).retry).toEqual([])
    return await rowsHeld(other)
  } finally {
    await Promise.all(
      bindings.map((b, i) => restoreDatabase(env[b], saved[i] ?? { tables: [], sequences: '[]' })),
    )
  }
}

/**
 * The rows the other layout holds after the same batches, each where the routed apply keeps it
 * (with `purgeTimes` false, the purges' tags but not their times).
 */
async function expectSameAsSingle({ purgeTimes = true } = {}): Promise<void> {
  const [held, other] = [await rowsHeld(databases), await otherLayoutHolds()]
  for (const [what, rows] of Object.entries(other)) {
    if (!purgeTimes && (what === 'control purges' || what === 'control pending_purges')) continue
    if (what === 'purged tags') {
      // Every page the other layout purged is purged, or waits to be, on control.
      expect(held[what], what).toEqual(expect.arrayContaining(rows))
      continue
    }
    expect(held[what], what).toEqual(rows)
  }
  for (const db of databases.shards)
    expect(await rowsOf([db], 'cities')).toEqual(other['control cities'])
  expect(held['control rate_experience_stats']?.filter((r) => !r.includes('"city_id":0'))).toEqual(
    held['shards rate_experience_stats'],
  )
  await expectDirectoryOfShards()
}

/** Control's directory names every provider and job where it is, as the import builds it. */
async function expectDirectoryOfShards(): Promise<void> {
  const ids = async (db: D1Database, sql: string) => (await db.prepare(sql).raw<[number]>()).flat()
  const onShards = async (sql: string) =>
    (await Promise.all(databases.shards.map((db) => ids(db, sql)))).flat().sort((a, b) => a - b)
  expect(await ids(databases.control, 'SELECT id FROM provider_directory ORDER BY id')).toEqual(
    await onShards('SELECT id FROM providers'),
  )
  expect(await ids(databases.control, 'SELECT id FROM job_directory ORDER BY id')).toEqual(
    await onShards('SELECT id FROM jobs'),
  )
  const control = (table: string) => rowsOf([databases.control], table)
  const directory = [await control('provider_directory'), await control('job_directory')]
  await buildDirectory(databases)
  expect([await control('provider_directory'), await control('job_directory')]).toEqual(directory)
}

/**
 * The batches `from` to `to` of `list`, each at its moment, routed through `routedOn` (and
 * recorded for the other layout); what the routed apply had to retry.
 */
async function applyBoth(
  list: readonly CatalogMessage[][],
  from: number,
  to: number,
  routedOn: Databases = databases,
) {
  const outcomes = []
  for (let i = from; i < to; i++) {
    const batch = list[i] ?? []
    applied.push({ batch, at: moment(i) })
    outcomes.push(await applyRouted(routedOn, batch, { now: moment(i) }))
  }
  return outcomes
}

/** `databases` with control's or a shard's binding replaced by `db`. */
function replaced(which: number | 'control', db: (real: D1Database) => D1Database): Databases {
  if (which === 'control') return { ...databases, control: db(databases.control) }
  const list = databases.shards.map((s, n) => (n === which ? db(s) : s))
  return { ...databases, shards: list }
}

/**
 * The routing read (control's first batch): cities, the directory's rows, the removed providers'
 * shards, the outboxes applied.
 */
const routingRead = (statements: D1PreparedStatement[]) => statements.length === 5

const failing = (real: D1Database) =>
  withFaults(real, { batch: () => Promise.reject(new Error('D1_ERROR: shard unavailable')) })

/** How many outbox rows `shard` holds past what control applied. */
async function pendingOutbox(shard: number): Promise<number> {
  const applied = await databases.control
    .prepare('SELECT seq FROM outbox_applied WHERE shard = ?')
    .bind(shard)
    .first<{ seq: number }>()
  const db = databases.shards[shard] as D1Database
  const row = await db
    .prepare('SELECT COUNT(*) AS n FROM outbox WHERE seq > ?')
    .bind(applied?.seq ?? 0)
    .first<{ n: number }>()
  return row?.n ?? 0
}

beforeEach(async () => {
  applied = []
  for (const db of [databases.control, ...databases.shards]) await wipe(db)
})

describe(`the routed apply on ${databases.shards.length} shard(s) and control`, () => {
  it('leaves control and the shards with the rows the other layout has, after every batch', async () => {
    const list = batches()
    for (let i = 0; i < list.length; i++) {
      const [outcome] = await applyBoth(list, i, i + 1)
      expect(outcome?.failures).toEqual([])
      expect(outcome?.retry).toEqual([])
      await expectSameAsSingle()
    }
    expect(await shards('providers')).toHaveLength(3)
  })

  it.skipIf(!two)(
    'moves a provider to the shard of its new city, with its listings and reviews',
    async () => {
      await applyBoth(batches(), 0, 4)
      const held = (db: D1Database) =>
        db
          .prepare('SELECT COUNT(*) AS n FROM reviews WHERE provider_id = 900000001')
          .first<number>('n')
      expect([
        await held(databases.shards[0] as D1Database),
        await held(databases.shards[1] as D1Database),
      ]).toEqual([0, 1])
      expect(
        await databases.control
          .prepare('SELECT shard, status FROM provider_directory WHERE id = 900000001')
          .first(),
      ).toEqual({ shard: 1, status: 'live' })
    },
  )
})

describe.skipIf(!two)('a job moving to a city on another shard', () => {
  const jobRow = () =>
    databases.control
      .prepare(
        'SELECT shard, status, moving_from AS movingFrom FROM job_directory WHERE id = 900000002',
      )
      .first()
  const held = () =>
    Promise.all(
      databases.shards.map((db) =>
        db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE id = 900000002').first<number>('n'),
      ),
    )

  it('is written on the new shard, switched in the directory and removed from the old one', async () => {
    const list = batches()
    await applyBoth(list, 0, 3)
    expect([await held(), await jobRow()]).toEqual([
      [0, 1],
      { shard: 1, status: 'live', movingFrom: null },
    ])
    const [outcome] = await applyBoth(list, 3, 4)
    expect(outcome?.failures).toEqual([])
    expect([await held(), await jobRow()]).toEqual([
      [1, 0],
      { shard: 0, status: 'live', movingFrom: null },
    ])
    // Denver's job counts and pages follow on its shard and on control.
    await expectSameAsSingle()
  })

  it('stays where it is when a message older than its move arrives, naming the city it left', async () => {
    const list = batches()
    await applyBoth(list, 0, 4)
    const late = aMessage('job.upserted', (m) => {
      Object.assign(m, { id: 900000002, version: 11 })
      Object.assign(m.entity, { cityId: CITIES.denver.id })
    })
    const [outcome] = await applyBoth([[late]], 0, 1)
    expect(outcome?.failures).toEqual([])
    expect([await held(), await jobRow()]).toEqual([
      [1, 0],
      { shard: 0, status: 'live', movingFrom: null },
    ])
    // Its row lived a moment on the shard it left, whose pages are purged once more for it.
    await expectSameAsSingle({ purgeTimes: false })
  })

  it('is finished by the cron when the old shard’s removal failed', async () => {
    const list = batches()
    await applyBoth(list, 0, 3)
    // The second shard's third batch of the move's batch is the job's removal: after its part
    // and the copy of the provider moving there.
    let calls = 0
    const cutShort = replaced(1, (real) =>
      withFaults(real, {
        batch: (batch, statements) =>
          ++calls === 3 ? Promise.reject(new Error('the consumer stopped')) : batch(statements),
      }),
    )
    const [outcome] = await applyBoth(list, 3, 4, cutShort)
    expect(outcome?.retry.map((m) => [m.kind, m.id])).toEqual([['job.upserted', 900000002]])
    expect([await held(), await jobRow()]).toEqual([
      [1, 1],
      { shard: 0, status: 'moving', movingFrom: 1 },
    ])
    await flushOutboxes(databases, moment(3))
    expect([await held(), await jobRow()]).toEqual([
      [1, 0],
      { shard: 0, status: 'live', movingFrom: null },
    ])
    // The retry the queue makes changes nothing more.
    expect(
      (await applyRouted(databases, outcome?.retry ?? [], { now: moment(3) })).failures,
    ).toEqual([])
    await applyBoth(list, 4, list.length)
    await expectSameAsSingle({ purgeTimes: false })
  })
})

describe.skipIf(!two)('a move cut short after the directory’s switch', () => {
  /** The first shard answers its part and the move's read, then fails the move's delete. */
  const moveCutShort = () => {
    let calls = 0
    return replaced(0, (real) =>
      withFaults(real, {
        batch: (batch, statements) =>
          ++calls === 3 ? Promise.reject(new Error('the consumer stopped')) : batch(statements),
      }),
    )
  }

  it('is finished by the next batch naming the provider: the old shard’s rows go', async () => {
    const list = batches()
    await applyBoth(list, 0, 3)
    const [outcome] = await applyBoth(list, 3, 4, moveCutShort())
    const directory = () =>
      databases.control
        .prepare(
          'SELECT shard, status, moving_from AS movingFrom FROM provider_directory WHERE id = 900000001',
        )
        .first()
    expect(await directory()).toEqual({ shard: 1, status: 'moving', movingFrom: 0 })
    expect(outcome?.retry.map((m) => [m.kind, m.id])).toEqual([['provider.upserted', 900000001]])
    const retried = await applyRouted(databases, outcome?.retry ?? [], { now: moment(3) })
    expect(retried.failures).toEqual([])
    expect(await directory()).toEqual({ shard: 1, status: 'live', movingFrom: null })
    await applyBoth(list, 4, list.length)
    // The move's purges are recorded when it is finished, not before.
    await expectSameAsSingle({ purgeTimes: false })
  })

  it('is finished by the cron when no batch names the provider', async () => {
    const list = batches()
    await applyBoth(list, 0, 3)
    await applyBoth(list, 3, 4, moveCutShort())
    await flushOutboxes(databases, moment(3))
    await expectSameAsSingle({ purgeTimes: false })
  })
})

describe('a crash between the shards and control', () => {
  it('loses nothing: the retry applies the shards’ outboxes once, and again changes nothing', async () => {
    const list = batches()
    await applyBoth(list, 0, 2)
    // Control's batch never runs: the routing read (its first batch) passes, the apply fails.
    let calls = 0
    const crash = (real: D1Database) =>
      withFaults(real, {
        batch: (batch, statements) =>
          calls++ === 0 ? batch(statements) : Promise.reject(new Error('the consumer stopped')),
      })
    const [outcome] = await applyBoth(list, 2, 3, replaced('control', crash))
    expect(outcome?.failures.map((f) => f.database)).toEqual(['control'])
    expect(outcome?.retry).toEqual(list[2])
    const waiting = await Promise.all(databases.shards.map((_, n) => pendingOutbox(n)))
    expect(
      waiting.some((n) => n > 0),
      JSON.stringify([waiting, outcome?.failures]),
    ).toBe(true)
    const retried = await applyRouted(databases, outcome?.retry ?? [], { now: moment(2) })
    expect(retried.failures).toEqual([])
    await expectSameAsSingle()
    // The same batch delivered once more: every part a no-op, control applies nothing twice.
    const before = await Promise.all(
      ['purges', 'provider_directory', 'service_city_stats', 'city_additions'].map((t) =>
        control(t),
      ),
    )
    await applyRouted(databases, list[2] ?? [], { now: moment(2) })
    expect(
      await Promise.all(
        ['purges', 'provider_directory', 'service_city_stats', 'city_additions'].map((t) =>
          control(t),
        ),
      ),
    ).toEqual(before)
    await expectSameAsSingle()
  })

  it('keeps the shards’ outboxes while control fails, for the cron to apply', async () => {
    const list = batches()
    await applyBoth(list, 0, 1)
    const down = replaced('control', (real) =>
      withFaults(real, {
        batch: (batch, statements) =>
          routingRead(statements) ? batch(statements) : Promise.reject(new Error('control down')),
      }),
    )
    const outcomes = await applyBoth(list, 1, 3, down)
    for (const outcome of outcomes)
      expect(outcome.failures.map((f) => f.database)).toEqual(['control'])
    expect(await control('provider_directory')).toEqual([])
    // The cron applies what the shards hold: the providers they took are in the directory.
    expect(await flushOutboxes(databases, moment(2))).toBeGreaterThan(0)
    expect(await flushOutboxes(databases, moment(2))).toBe(0)
    expect(await control('provider_directory')).toHaveLength(4)
    // The queue's retries: what waited for the directory (a listing of a provider control did
    // not yet know) is applied; the rest is a no-op on every database.
    for (const outcome of outcomes) {
      const retried = await applyRouted(databases, outcome.retry, { now: moment(2) })
      expect(retried.failures).toEqual([])
    }
    // Purges derived on control are recorded when control applies them, not before.
    await expectSameAsSingle({ purgeTimes: false })
  })
})

describe('control applying an outbox row', () => {
  it('applies it once: rows sent again after newer ones (a late, concurrent consumer) change nothing', async () => {
    const list = batches()
    await applyBoth(list, 0, 2)
    const down = replaced('control', (real) =>
      withFaults(real, {
        batch: (batch, statements) =>
          routingRead(statements) ? batch(statements) : Promise.reject(new Error('control down')),
      }),
    )
    const [outcome] = await applyBoth(list, 2, 3, down)
    // What that consumer would have sent control, had it not stopped.
    const late: OutboxRow[] = []
    for (const [shard, db] of databases.shards.entries()) {
      const { results } = await db
        .prepare('SELECT seq, kind, body FROM outbox ORDER BY seq')
        .all<Omit<OutboxRow, 'shard'>>()
      late.push(...results.map((row) => ({ shard, ...row })))
    }
    expect(late.length).toBeGreaterThan(0)
    expect(
      (await applyRouted(databases, outcome?.retry ?? [], { now: moment(2) })).failures,
    ).toEqual([])
    await applyBoth(list, 3, list.length)
    await databases.control.batch(
      controlStatements(databases.control, [], late, moment(list.length - 1)),
    )
    await expectSameAsSingle()
  })
})

describe.skipIf(!two)('one shard failing', () => {
  it('leaves the other shards’ parts applied once; the retry applies only the failed part', async () => {
    const list = batches()
    await applyBoth(list, 0, 1)
    const [outcome] = await applyBoth(list, 1, 2, replaced(1, failing))
    expect(outcome?.failures.map((f) => f.database)).toEqual([1])
    const onSecond = (id: number) => id === 900000002 || id === 900000003 || id === 900000002
    expect(outcome?.retry.map((m) => m.id).every(onSecond)).toBe(true)
    // The first shard's providers are in, and in control's directory; none of the second's.
    expect(
      await databases.control
        .prepare('SELECT id, shard FROM provider_directory ORDER BY id')
        .all()
        .then((r) => r.results),
    ).toEqual([
      { id: 900000001, shard: 0 },
      { id: 900000004, shard: 0 },
    ])
    let firstShardBatches = 0
    const watched = replaced(0, (real) =>
      withFaults(real, {
        batch: (batch, statements) => {
          firstShardBatches++
          return batch(statements)
        },
      }),
    )
    const retried = await applyRouted(watched, outcome?.retry ?? [], { now: moment(1) })
    expect(retried.failures).toEqual([])
    expect(firstShardBatches).toBe(0)
    await expectSameAsSingle()
  })

  it('retries the review itself when the shard taking its removal fails', async () => {
    // A review of a provider on the first shard, whose removal the second takes.
    const onFirst = review(900000001, 900000001, 5)
    const list = [...batches().slice(0, 2), [onFirst]]
    await applyBoth(list, 0, 2)
    const [outcome] = await applyBoth(list, 2, 3, replaced(1, failing))
    expect(outcome?.retry).toEqual([onFirst])
    expect(outcome?.retry[0]).toBe(onFirst)
    expect(outcome?.failures.map((f) => f.messages)).toEqual([[onFirst]])
    const retried = await applyRouted(databases, outcome?.retry ?? [], { now: moment(2) })
    expect(retried.failures).toEqual([])
    await expectSameAsSingle()
  })
})
