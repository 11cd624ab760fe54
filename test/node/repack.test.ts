// Adding a shard (docs/scale.md, "Adding a shard (re-pack)"), run as the runbook says with the
// real `npm run import` on real local D1: a catalog live on layout `one` is re-imported from its
// export into layout `two` in fresh databases while the live layout takes the changes that
// arrive meanwhile (through the queue consumer's routed apply); those changes are then replayed
// into the new layout. The new layout must then hold exactly what the live one holds, every
// provider, job and city's rows on the shard the new layout places its city on. Then the purge
// of every page that follows the switch's deploy, and the options' refusals.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogLines } from '../../scripts/seed/catalog-lines'
import { catalogPlaces } from '../../scripts/seed/places'
import { purgeRequestSchema } from '../../src/cache/purge'
import { layoutNamed, shardOfCity } from '../../src/catalog/placement'
import { ALL_PAGES_TAGS } from '../../src/sync/purge-tags'
import { newestVersions } from '../support/versions'
import { withBindings } from './local-bindings'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const NOW = new Date('2026-11-01T00:00:00Z')
const TWO = layoutNamed('two')
const SHARDS = ['SHARD_00', 'SHARD_01'] as const

interface Message {
  kind: string
  id: number
  version: number
  entity?: Record<string, unknown>
  [key: string]: unknown
}

let dir: string
let exported: string
let changes: string
/** What the changes do, for the assertions: the provider and job that move to another shard. */
const moved = { provider: 0, job: 0, removed: 0, city: 0 }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-repack-'))
  exported = join(dir, 'catalog.ndjson')
  changes = join(dir, 'changes.ndjson')
  const lines = [...catalogLines(catalogPlaces(21), { scale: 0.05, seed: 1, now: NOW })].flat()
  await writeFile(exported, lines.join('\n') + '\n')
  await writeFile(
    changes,
    changeLines(lines.map((l) => JSON.parse(l) as Message)).join('\n') + '\n',
  )
}, 120_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/**
 * The marketplace's changes from a little before the export's moment: a provider and a job
 * moving from Atlanta (`two`'s first shard) to Austin (its second), a provider edited, one
 * removed, a review, a listing and an activity changed, a job closed, a city added with a
 * provider in it; and, as a feed starting before the export gives, a line of the export again
 * and an edit older than the export's.
 */
function changeLines(catalog: Message[]): string[] {
  const cityId = (name: string) =>
    catalog.find((m) => m.kind === 'city.added' && m.entity?.name === name)?.id ?? 0
  const [atlanta, austin, boston] = ['Atlanta', 'Austin', 'Boston'].map(cityId)
  const of = (kind: string, city?: number) =>
    catalog.filter((m) => m.kind === kind && (city === undefined || m.entity?.cityId === city))
  const [mover, edited, removed] = [
    of('provider.upserted', atlanta)[0],
    ...of('provider.upserted', boston),
  ]
  const [job, closing] = of('job.upserted', atlanta)
  const listing = of('provider-service.offered').find((m) => m.id === edited?.id)
  const review = of('review.added')[0]
  const activity = of('activity.upserted')[0]
  if (!mover || !edited || !removed || !job || !closing || !listing || !review || !activity)
    throw new Error('the test catalog lacks an entity the changes need')
  moved.provider = mover.id
  moved.job = job.id
  moved.removed = removed.id
  const later = (m: Message, by: number) => ({ ...m, version: m.version + by })
  const portland = 5746545
  moved.city = portland
  const changed: Message[] = [
    later(catalog[0] as Message, 0),
    { ...later(mover, 1000), entity: { ...mover.entity, cityId: austin } },
    { ...later(edited, 1000), entity: { ...edited.entity, headline: 'Edited while re-packing' } },
    { ...later(edited, -1000), entity: { ...edited.entity, headline: 'Older than the export' } },
    { kind: 'provider.removed', id: removed.id, version: removed.version + 1000 },
    { ...later(listing, 1000), entity: { ...listing.entity, rateMin: 30, rateMax: 40 } },
    {
      ...later(review, 0),
      id: 9_000_001,
      entity: { ...review.entity, providerId: mover.id, body: 'Arrived during the re-pack.' },
    },
    { ...later(job, 1000), entity: { ...job.entity, cityId: austin } },
    { ...later(closing, 1000), kind: 'job.closed', closedAt: '2026-10-30T12:00:00Z' },
    { ...later(activity, 1000), entity: { ...activity.entity, name: 'Renamed while re-packing' } },
    {
      kind: 'city.added',
      id: portland,
      version: mover.version + 1000,
      entity: {
        name: 'Portland',
        stateCode: 'OR',
        lat: 45.52345,
        lng: -122.67621,
        population: 652503,
      },
    },
    { ...later(edited, 2000), id: 9_000_002, entity: { ...edited.entity, cityId: portland } },
  ]
  return changed.map((m) => JSON.stringify(m))
}

async function runImport(file: string, args: string[]): Promise<void> {
  await promisify(execFile)(
    'node_modules/.bin/tsx',
    ['scripts/import.ts', '--file', file, ...args],
    { env: ENV },
  )
}

/** Tables of a database that are not the catalog's: work in flight and operational records. */
const NOT_CATALOG = new Set([
  'd1_migrations',
  'outbox',
  'outbox_applied',
  'outbox_staged',
  'sync_touched',
  'sync_applied',
  'purges',
  'pending_purges',
  'purge_log',
  'purge_snapshots',
  'purge_snapshot_parts',
  'cron_steps',
  'cron_cursors',
  'guest_messages',
  'sync_dead',
])

/**
 * Every catalog table of `db`: its rows as JSON texts, sorted. A derived row's `updated_at` (when
 * it was computed) is left out, and so is the directory's `shard`, which the layout decides.
 */
async function catalogOf(db: D1Database): Promise<Map<string, string[]>> {
  const tables = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table'
          AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name`,
    )
    .raw<[string]>()
  const out = new Map<string, string[]>()
  for (const [table] of tables) {
    if (NOT_CATALOG.has(table)) continue
    const { results } = await db.prepare(`SELECT * FROM ${table}`).all<Record<string, unknown>>()
    const derived = /_stats$|_mixes$|_ends$|sitemap_/.test(table)
    out.set(
      table,
      results
        .map((row) => {
          const { updated_at, shard, ...rest } = row
          return JSON.stringify({
            ...rest,
            ...(derived ? {} : { updated_at }),
            ...(table.endsWith('_directory') ? {} : { shard }),
          })
        })
        .sort(),
    )
  }
  return out
}

/**
 * The catalog of a layout's shards taken together: each table's distinct rows, and each entity's
 * newest version.
 */
function together(shards: Map<string, string[]>[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const shard of shards)
    for (const [table, rows] of shard) out.set(table, [...(out.get(table) ?? []), ...rows])
  for (const [table, rows] of out)
    out.set(table, table === 'sync_versions' ? newestVersions(rows) : [...new Set(rows)].sort())
  return out
}

interface LayoutCatalog {
  control: Map<string, string[]>
  shards: Map<string, string[]>
}

async function catalogs(persistTo: string, shards: readonly string[]): Promise<LayoutCatalog> {
  return withBindings(persistTo, async (env) => ({
    control: await catalogOf(env.CONTROL),
    shards: together(
      await Promise.all(shards.map((b) => catalogOf(Reflect.get(env, b) as D1Database))),
    ),
  }))
}

describe('adding a shard: re-pack from layout one into two', { timeout: 600_000 }, () => {
  it('leaves the new layout holding what the live one holds, changes during the re-pack included', async () => {
    const live = join(dir, 'live')
    const next = join(dir, 'next')
    await runImport(exported, ['--layout', 'one', '--persist-to', live])
    // The re-import into the new layout's fresh databases while the live layout's consumer
    // applies the changes as they arrive.
    await Promise.all([
      runImport(exported, ['--layout', 'two', '--persist-to', next]),
      runImport(changes, ['--replay', '--layout', 'one', '--persist-to', live]),
    ])
    const before = await catalogs(next, SHARDS)
    const held = await catalogs(live, ['SHARD_00'])
    // Without the replay the new layout misses the changes: the comparison below can fail.
    expect(before.shards.get('providers')).not.toEqual(held.shards.get('providers'))
    expect(before.control.get('provider_directory')).not.toEqual(
      held.control.get('provider_directory'),
    )

    await runImport(changes, ['--replay', '--layout', 'two', '--persist-to', next])
    const after = await catalogs(next, SHARDS)
    expect([...after.control.keys()]).toEqual([...held.control.keys()])
    for (const [table, rows] of held.control)
      expect(after.control.get(table), `CONTROL ${table}`).toEqual(rows)
    expect([...after.shards.keys()]).toEqual([...held.shards.keys()])
    for (const [table, rows] of held.shards)
      expect(after.shards.get(table), `shards' ${table}`).toEqual(rows)
  })

  it('places every provider, job and listing on the shard of its city in the new layout', async () => {
    await withBindings(join(dir, 'next'), async (env) => {
      const slugs = new Map(
        await env.CONTROL.prepare('SELECT id, slug FROM cities').raw<[number, string]>(),
      )
      const home = (cityId: number) => TWO && shardOfCity(TWO, slugs.get(cityId) ?? '')
      const where = new Map<string, number>()
      for (const [n, binding] of SHARDS.entries()) {
        const db = env[binding]
        const rows = await db
          .prepare(
            `SELECT 'provider:' || id, city_id FROM providers
             UNION ALL SELECT 'job:' || id, city_id FROM jobs
             UNION ALL SELECT 'listing:' || s.provider_id || ':' || s.service, p.city_id
               FROM provider_services s JOIN providers p ON p.id = s.provider_id
             UNION ALL SELECT 'review:' || r.id, p.city_id
               FROM reviews r JOIN providers p ON p.id = r.provider_id`,
          )
          .raw<[string, number]>()
        expect(rows.length, binding).toBeGreaterThan(0)
        for (const [key, cityId] of rows) {
          expect(home(cityId), key).toBe(n)
          expect(where.has(key), `${key} on one shard only`).toBe(false)
          where.set(key, n)
        }
      }
      // The moves during the re-pack landed on the second shard; the directory says so.
      expect(where.get(`provider:${moved.provider}`)).toBe(1)
      expect(where.get(`job:${moved.job}`)).toBe(1)
      expect(where.get('provider:9000002')).toBe(1)
      expect(where.has(`provider:${moved.removed}`)).toBe(false)
      const directory = await env.CONTROL.prepare('SELECT id, shard FROM provider_directory').raw<
        [number, number]
      >()
      for (const [id, shard] of directory)
        expect(shard, `provider ${id}`).toBe(where.get(`provider:${id}`))
    })
  })
})

describe('the purge of every page after the switch', () => {
  it('asks the purge endpoint for every page type’s tag, in a body the endpoint accepts', async () => {
    const bodies: unknown[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        bodies.push(JSON.parse(body))
        res.writeHead(200).end(JSON.stringify({ by: 'ops', at: '2026-11-28T00:00:00.000Z' }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    try {
      const { stdout } = await promisify(execFile)(
        'node_modules/.bin/tsx',
        ['scripts/purge.ts', '--all-pages', '--origin', origin],
        { env: { ...ENV, PURGE_TOKEN: 'ops-token' } },
      )
      expect(stdout).toContain(`purged ${ALL_PAGES_TAGS.length}: tag page:`)
    } finally {
      server.close()
    }
    expect(bodies).toEqual([{ urls: [], tags: ALL_PAGES_TAGS }])
    expect(purgeRequestSchema.safeParse(bodies[0]).success).toBe(true)
  })
})

describe('the re-pack’s options refused with one line and exit 2', () => {
  it.each([
    [['--layout', 'nine'], '--layout names no layout of src/catalog/placement.ts: "nine"'],
    [['--layout', 'two', '--env', 'staging'], '--layout is for --local imports'],
    [['--replay', '--resume'], '--replay is not resumed'],
    [['--replay', '--batch', '101'], '--batch takes a whole number'],
  ])('%j', async (args, message) => {
    const refused = await promisify(execFile)('node_modules/.bin/tsx', [
      'scripts/import.ts',
      '--file',
      'catalog.ndjson',
      ...args,
    ]).then(
      () => null,
      (error: unknown) => error as { code: number; stderr: string },
    )
    expect(refused?.code).toBe(2)
    expect(refused?.stderr).toContain(message)
  })
})
