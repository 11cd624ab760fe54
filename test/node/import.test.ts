// `npm run import` against a real local D1 in a temporary persist folder, as an operator runs it:
// bad lines rejected with their numbers and reasons while the rest load, every line routed to
// control and the shard of its city (docs/scale.md), the migrations applied as
// wrangler would, the same tables after a second run, a run killed half-way resumed from its
// checkpoint, a run whose shard was cut off resumed from that shard's, the environment's
// databases bound for a remote import, and the file read as a stream.
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'smol-toml'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ImportHost } from '../../scripts/import/host'
import { openHost, remoteConfig } from '../../scripts/import/host'
import { importFile } from '../../scripts/import/import-file'
import { readLines } from '../../scripts/import/ndjson'
import type { Reject } from '../../scripts/import/rejects'
import { catalogLines } from '../../scripts/seed/catalog-lines'
import { catalogPlaces } from '../../scripts/seed/places'
import { layoutNamed, shardOfCity } from '../../src/catalog/placement'
import { readGate } from '../../src/gate/gate-store'
import { withBindings } from './local-bindings'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const NOW = new Date('2026-11-01T00:00:00Z')
/** The tables an import writes; the derived ones are dated by the run, so compared by count. */
const BATCH = 50

let dir: string
let catalog: string
/** The bad lines put into the catalog, by line number, with a word their reason must name. */
const bad = new Map<number, string>()
let valid = 0

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-import-'))
  catalog = join(dir, 'catalog.ndjson')
  const lines = [...catalogLines(catalogPlaces(21), { scale: 0.05, seed: 1, now: NOW })].flat()
  valid = lines.length
  const first = (kind: string) =>
    JSON.parse(lines.find((l) => l.includes(`"${kind}"`)) ?? '{}') as {
      entity: Record<string, unknown>
    }
  const provider = first('provider.upserted')
  const job = first('job.upserted')
  const put = (at: number, line: string, word: string) => {
    lines.splice(at - 1, 0, line)
    bad.set(at, word)
  }
  // In file order, so each keeps its line number.
  put(3, '{"kind": "provider.upserted", "id": 1,', 'not JSON')
  put(40, JSON.stringify({ kind: 'provider.exploded', id: 1, version: 1 }), 'kind')
  put(
    120,
    JSON.stringify({ ...provider, entity: { ...provider.entity, yearsExperience: 'ten' } }),
    'entity.yearsExperience',
  )
  lines.splice(200, 0, '') // blank lines are skipped, and counted
  // Valid in shape, impossible in fact: a job in a city the catalog does not have.
  put(
    lines.length - 5,
    JSON.stringify({ ...job, id: 9_999_999, entity: { ...job.entity, cityId: 424242 } }),
    'not applied',
  )
  await writeFile(catalog, lines.join('\n') + '\n')
}, 120_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function runImport(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node_modules/.bin/tsx',
      ['scripts/import.ts', '--file', catalog, '--batch', String(BATCH), ...args],
      { env: ENV },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** The layout of wrangler.toml, which a local import routes by, and its databases' bindings. */
const LAYOUT = layoutNamed('two')
const SHARDS = ['SHARD_00', 'SHARD_01'] as const
const BINDINGS = ['CONTROL', ...SHARDS] as const

/** What control and each shard hold of the catalog: hashed whole, and derived (counted). */
const SHARDED = {
  CONTROL: {
    rows: ['cities', 'activities', 'sync_versions', 'provider_directory', 'job_directory'],
    derived: ['service_city_stats', 'service_state_stats', 'activity_stats', 'sitemap_blocks'],
  },
  shard: {
    rows: ['cities', 'providers', 'provider_services', 'reviews', 'jobs', 'sync_versions'],
    derived: ['service_city_stats', 'job_city_stats', 'city_service_mixes'],
  },
}

const all = async (db: D1Database, sql: string) => (await db.prepare(sql).all()).results

/** `tables`' rows hashed in key order and `derived`'s counted, each under `prefix` + its name. */
async function hashed(db: D1Database, prefix: string, tables: string[], derived: string[]) {
  const out: Record<string, string | number> = {}
  for (const table of tables) {
    const results = await all(db, `SELECT * FROM ${table} ORDER BY 1, 2`)
    out[prefix + table] =
      `${results.length} ${createHash('sha256').update(JSON.stringify(results)).digest('hex')}`
  }
  for (const table of derived) {
    const row = await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>()
    out[prefix + table] = row?.n ?? 0
  }
  return out
}

/**
 * Each catalog table's rows, hashed in key order, and the derived tables' row counts: control's
 * and each shard's under `CONTROL ` and `SHARD_nn ` + their names.
 */
async function tables(persistTo: string) {
  return withBindings(persistTo, async (env) => {
    const out: Record<string, string | number> = {
      ...(await hashed(env.CONTROL, 'CONTROL ', SHARDED.CONTROL.rows, SHARDED.CONTROL.derived)),
    }
    for (const shard of SHARDS)
      Object.assign(
        out,
        await hashed(env[shard], `${shard} `, SHARDED.shard.rows, SHARDED.shard.derived),
      )
    out.gate = (await readGate(env.GATE))?.meta.items ?? 0
    return out
  })
}

/** The checkpoint line each database recorded. */
async function checkpoints(host: ImportHost): Promise<Record<string, number | null>> {
  const lines = await Promise.all(
    BINDINGS.map(async (binding) => {
      const [row] = await host.queryOn<{ value: string }>(
        binding,
        "SELECT value FROM catalog_meta WHERE key = 'import_checkpoint'",
      )
      return [binding, row ? (JSON.parse(row.value) as { line: number }).line : null] as const
    }),
  )
  return Object.fromEntries(lines)
}

const readRejects = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Reject)

describe('npm run import --local', { timeout: 300_000 }, () => {
  let first: Awaited<ReturnType<typeof tables>>

  it('loads every valid line and rejects each bad one with its number and reason', async () => {
    const persistTo = join(dir, 'cli')
    const r = await runImport(['--persist-to', persistTo])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/import: 4 lines rejected, each with its reason in .*rejects\.ndjson/)
    const rejects = await readRejects(`${catalog}.rejects.ndjson`)
    expect(rejects.map((x) => x.line)).toEqual([...bad.keys()])
    for (const x of rejects) expect(x.reason).toContain(bad.get(x.line))
    first = await tables(persistTo)
    const rowsOf = (key: string) => Number(String(first[key]).split(' ')[0])
    // A catalog table's rows: control's, or every shard's together.
    const count = (table: string) =>
      SHARDED.CONTROL.rows.includes(table)
        ? rowsOf(`CONTROL ${table}`)
        : SHARDS.reduce((sum, shard) => sum + rowsOf(`${shard} ${table}`), 0)
    const kinds = (await readFile(catalog, 'utf8')).split('\n')
    const of = (kind: string) => kinds.filter((l) => l.includes(`"kind":"${kind}"`)).length
    expect(count('cities')).toBe(of('city.added'))
    expect(count('providers')).toBe(of('provider.upserted') - 1) // the one with the bad field
    expect(count('provider_services')).toBe(of('provider-service.offered'))
    expect(count('reviews')).toBe(of('review.added'))
    expect(count('jobs')).toBe(of('job.upserted') - 1) // the one in no city
    expect(count('activities')).toBe(of('activity.upserted'))
    // Each version where its entity is: control's cities and activities, a shard's people and
    // jobs (and its copy of each city's version, counted on control).
    const cities = of('city.added')
    expect(
      rowsOf('CONTROL sync_versions') +
        SHARDS.reduce((sum, shard) => sum + rowsOf(`${shard} sync_versions`) - cities, 0),
    ).toBe(valid)
    // Derived once at the end: the stats and the gate (its items the cities: docs/scale.md).
    expect(first['CONTROL service_city_stats']).toBeGreaterThan(0)
    expect(SHARDS.map((shard) => first[`${shard} job_city_stats`])).not.toContain(0)
    expect(first.gate).toBe(count('cities'))
    expect(rowsOf('CONTROL provider_directory')).toBe(count('providers'))
    expect(rowsOf('CONTROL job_directory')).toBe(count('jobs'))
  })

  it('routes each line to control and to the shard its city is on, and ends each database', async () => {
    await withBindings(join(dir, 'cli'), async (env) => {
      const asSet = (rows: unknown[]) => new Set(rows.map((r) => JSON.stringify(r)))
      const lines = (await readFile(catalog, 'utf8')).split('\n').filter(Boolean)
      // The file's messages (its bad lines, some not JSON at all, aside).
      const parsed = lines.flatMap((l) => {
        try {
          return [JSON.parse(l) as { kind?: string; id?: number }]
        } catch {
          return []
        }
      })
      const idsOf = (kind: string) =>
        new Set(parsed.filter((m) => m.kind === kind).map((m) => m.id))
      for (const [table, kind] of [
        ['providers', 'provider.upserted'],
        ['reviews', 'review.added'],
        ['jobs', 'job.upserted'],
      ] as const) {
        const held = await Promise.all(SHARDS.map((b) => all(env[b], `SELECT id FROM ${table}`)))
        // Each row on exactly one shard, each shard holding some, every one a message's.
        for (const rows of held) expect(rows.length, table).toBeGreaterThan(0)
        const ids = held.flat().map((r) => (r as { id: number }).id)
        expect(new Set(ids).size, table).toBe(ids.length)
        for (const id of ids) expect(idsOf(kind).has(id), `${table} ${id}`).toBe(true)
      }
      for (const [n, shard] of SHARDS.entries()) {
        const slugs = await env[shard]
          .prepare(
            `SELECT DISTINCT c.slug FROM cities c
              WHERE c.id IN (SELECT city_id FROM providers UNION SELECT city_id FROM jobs)`,
          )
          .raw<[string]>()
        for (const [slug] of slugs) expect(LAYOUT && shardOfCity(LAYOUT, slug), slug).toBe(n)
        // The shard derived its own cities' stats.
        const stats = await all(env[shard], 'SELECT DISTINCT city_id FROM service_city_stats')
        expect(stats.length).toBe(
          (await all(env[shard], 'SELECT DISTINCT city_id FROM provider_services')).length,
        )
      }
      const cities = asSet(await all(env.CONTROL, 'SELECT * FROM cities'))
      expect(cities.size).toBe(idsOf('city.added').size)
      for (const shard of SHARDS)
        expect(asSet(await all(env[shard], 'SELECT * FROM cities'))).toEqual(cities)
      const activities = await all(env.CONTROL, 'SELECT id FROM activities')
      expect(new Set(activities.map((r) => (r as { id: number }).id))).toEqual(
        idsOf('activity.upserted'),
      )
      // Control's directory names each provider's shard; its copies are the shards' rows, and
      // its rollups sum them.
      const directory = await env.CONTROL.prepare('SELECT id, shard FROM provider_directory').raw<
        [number, number]
      >()
      const where = new Map<number, number>()
      for (const [n, shard] of SHARDS.entries())
        for (const [id] of await env[shard].prepare('SELECT id FROM providers').raw<[number]>())
          where.set(id, n)
      expect(new Map(directory)).toEqual(where)
      const copies = await Promise.all(
        SHARDS.map((shard) => all(env[shard], 'SELECT * FROM service_city_stats')),
      )
      expect(asSet(await all(env.CONTROL, 'SELECT * FROM service_city_stats'))).toEqual(
        asSet(copies.flat()),
      )
      const [state] = await all(env.CONTROL, 'SELECT SUM(providers) AS n FROM service_state_stats')
      const [city] = await all(env.CONTROL, 'SELECT SUM(providers) AS n FROM service_city_stats')
      expect(state).toEqual(city)
    })
  })

  // Control's and each shard's from their own folders (docs/scale.md), as the catalog's.
  it.each(['CONTROL', 'SHARD_00', 'SHARD_01'])(
    'applies the migrations of %s as wrangler records them: wrangler finds none left to apply',
    async (binding) => {
      const { stdout } = await promisify(execFile)(
        'node_modules/.bin/wrangler',
        ['d1', 'migrations', 'list', binding, '--local', '--persist-to', join(dir, 'cli')],
        { env: { ...ENV, CI: 'true' } },
      )
      expect(stdout).toContain('No migrations to apply')
    },
  )

  it('leaves the same tables when run twice', async () => {
    const r = await runImport(['--persist-to', join(dir, 'cli')])
    expect(r.code).toBe(1)
    expect(await tables(join(dir, 'cli'))).toEqual(first)
    expect((await readRejects(`${catalog}.rejects.ndjson`)).map((x) => x.line)).toEqual([
      ...bad.keys(),
    ])
  })

  it('resumes a run that died after its third batch from the line it had committed', async () => {
    const persistTo = join(dir, 'resumed')
    const rejects = join(dir, 'resumed.rejects.ndjson')
    const host = await openHost({ local: true, persistTo })
    try {
      let batches = 0
      const dying = {
        ...host,
        apply: async (...args: Parameters<typeof host.apply>) => {
          if (++batches > 3) throw new Error('the process died')
          return host.apply(...args)
        },
        answers: () => Promise.resolve(batches <= 3),
      }
      const options = { file: catalog, rejects, batchMessages: BATCH, label: 'test' }
      await expect(importFile(dying, { ...options, resume: false })).rejects.toThrow('died')
      // Three batches of 50 messages, and the three bad lines among them.
      expect((await host.checkpoint())?.line).toBe(3 * BATCH + 3)
      const resumed = await importFile(host, { ...options, resume: true })
      expect(resumed.skipped).toBe(3 * BATCH + 3)
      expect(resumed.applied).toBe(valid - 3 * BATCH)
      expect((await readRejects(rejects)).map((x) => x.line)).toEqual([...bad.keys()])
      await host.finish(new Date()) // the ratings, as the command's last step
    } finally {
      await host.dispose()
    }
    expect(await tables(persistTo)).toEqual(first)
  })

  it('resumes a run whose shard was cut off from that shard’s checkpoint, the others’ lines again', async () => {
    const persistTo = join(dir, 'cut')
    const rejects = join(dir, 'cut.rejects.ndjson')
    const host = await openHost({ local: true, persistTo })
    // SHARD_01 refuses every write of its checkpoint: each batch it is sent fails there alone.
    const cut = ['INSERT', 'UPDATE'].map(
      (on) => `CREATE TRIGGER cut_${on} BEFORE ${on} ON catalog_meta
                 BEGIN SELECT RAISE(ABORT, 'SHARD_01 is cut off'); END`,
    )
    try {
      let batches = 0
      const cutting = {
        ...host,
        apply: async (...args: Parameters<typeof host.apply>) => {
          if (++batches === 4) for (const sql of cut) await host.queryOn('SHARD_01', sql)
          return host.apply(...args)
        },
        // Then no database is taken to answer: the import stops, as when one cannot be reached.
        answers: () => Promise.resolve(batches < 4),
      }
      const options = { file: catalog, rejects, batchMessages: BATCH, label: 'test' }
      await expect(importFile(cutting, { ...options, resume: false })).rejects.toThrow(
        'SHARD_01 is cut off',
      )
      // Control and SHARD_00 committed the fourth batch; SHARD_01 stopped after the third.
      const at = await checkpoints(host)
      expect(at.SHARD_01).toBe(3 * BATCH + 3)
      expect(at.CONTROL).toBeGreaterThan(3 * BATCH + 3)
      expect(at.SHARD_00).toBe(at.CONTROL)
      for (const on of ['INSERT', 'UPDATE'])
        await host.queryOn('SHARD_01', `DROP TRIGGER cut_${on}`)
      const resumed = await importFile(host, { ...options, resume: true })
      expect(resumed.skipped).toBe(3 * BATCH + 3)
      expect(resumed.applied).toBe(valid - 3 * BATCH)
      expect((await readRejects(rejects)).map((x) => x.line)).toEqual([...bad.keys()])
      await host.finish(new Date())
    } finally {
      await host.dispose()
    }
    expect(await tables(persistTo)).toEqual(first)
  })
})

describe('npm run import --env', () => {
  /** wrangler.toml with the ids the first deploy prints filled in, but for `missing`. */
  async function deployed(missing?: string): Promise<string> {
    const config = join(dir, `deployed-${missing ?? 'all'}.toml`)
    const toml = (await readFile('wrangler.toml', 'utf8'))
      .replace(/database_name = "([^"]+)"/g, (line, name: string) =>
        name === missing ? line : `${line}\ndatabase_id = "id-of-${name}"`,
      )
      .replace(/(\[\[env\.staging\.kv_namespaces\]\]\nbinding = "GATE")/, '$1\nid = "gate-staging"')
    await writeFile(config, toml)
    return config
  }

  it('runs the import worker on the environment’s control and each shard of its layout, alone', async () => {
    const written = parse(
      await readFile(remoteConfig('staging', 'worker.js', await deployed()), 'utf8'),
    )
    expect(written.vars).toEqual({ SHARD_LAYOUT: 'staging' })
    expect(written.d1_databases).toEqual(
      [
        ['CONTROL', 'care-control-staging'],
        ['SHARD_00', 'care-shard-00-staging'],
        ['SHARD_01', 'care-shard-01-staging'],
      ].map(([binding, name]) => ({
        binding,
        database_name: name,
        database_id: `id-of-${name}`,
        remote: true,
      })),
    )
    expect(written.kv_namespaces).toEqual([{ binding: 'GATE', id: 'gate-staging', remote: true }])
  })

  it('is refused, naming the binding, while a shard has no database id', async () => {
    const config = await deployed('care-shard-01-staging')
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exit')
    })
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      expect(() => remoteConfig('staging', 'worker.js', config)).toThrow('exit')
      expect(said).toHaveBeenCalledWith(
        'wrangler.toml [env.staging] has no database_id for SHARD_01: deploy the environment first (docs/operations.md)',
      )
    } finally {
      exit.mockRestore()
      said.mockRestore()
    }
  })
})

describe('readLines', () => {
  it('hands out each line as it arrives, before the file ends', async () => {
    const fifo = join(dir, 'fifo')
    await promisify(execFile)('mkfifo', [fifo])
    // The writer keeps the pipe open after its lines: the file has not ended.
    const writer = spawn('sh', ['-c', `exec 3>${fifo}; printf 'one\\n\\ntwo\\n' >&3; sleep 30`])
    try {
      const lines = readLines(fifo)
      expect((await lines.next()).value).toMatchObject({ line: 1, text: 'one' })
      expect((await lines.next()).value).toMatchObject({ line: 3, text: 'two' })
      await lines.return(undefined)
    } finally {
      writer.kill()
    }
  })
})
