// `npm run import` against a real local D1 in a temporary persist folder, as an operator runs it:
// bad lines rejected with their numbers and reasons while the rest load, the migrations applied
// as wrangler would, the same tables after a second run, a run killed half-way resumed from its checkpoint, and the file read as a stream.
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { getPlatformProxy } from 'wrangler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openHost } from '../../scripts/import/host'
import { importFile } from '../../scripts/import/import-file'
import { TABLES } from '../../scripts/seed/city-rows'
import { readLines } from '../../scripts/import/ndjson'
import type { Reject } from '../../scripts/import/rejects'
import { catalogLines } from '../../scripts/seed/catalog-lines'
import { catalogPlaces } from '../../scripts/seed/places'
import { readGate } from '../../src/gate/gate-store'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const NOW = new Date('2026-11-01T00:00:00Z')
/** The tables an import writes; the derived ones are dated by the run, so compared by count. */
const CATALOG_TABLES = [...TABLES, 'sync_versions']
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

/** Each catalog table's rows, hashed in key order, and the derived tables' row counts. */
async function tables(persistTo: string) {
  const { env, dispose } = await getPlatformProxy<Env>({
    persist: { path: join(persistTo, 'v3') },
    remoteBindings: false,
  })
  try {
    const out: Record<string, string | number> = {}
    for (const table of CATALOG_TABLES) {
      const { results } = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()
      out[table] =
        `${results.length} ${createHash('sha256').update(JSON.stringify(results)).digest('hex')}`
    }
    for (const table of ['service_city_stats', 'job_city_stats', 'activity_stats']) {
      const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>()
      out[table] = row?.n ?? 0
    }
    out.gate = (await readGate(env.GATE))?.meta.items ?? 0
    return out
  } finally {
    await dispose()
  }
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
    const count = (table: string) => Number(String(first[table]).split(' ')[0])
    const kinds = (await readFile(catalog, 'utf8')).split('\n')
    const of = (kind: string) => kinds.filter((l) => l.includes(`"kind":"${kind}"`)).length
    expect(count('cities')).toBe(of('city.added'))
    expect(count('providers')).toBe(of('provider.upserted') - 1) // the one with the bad field
    expect(count('provider_services')).toBe(of('provider-service.offered'))
    expect(count('reviews')).toBe(of('review.added'))
    expect(count('jobs')).toBe(of('job.upserted') - 1) // the one in no city
    expect(count('activities')).toBe(of('activity.upserted'))
    expect(count('sync_versions')).toBe(valid)
    // Derived once at the end: the stats and the gate.
    expect(first.service_city_stats).toBeGreaterThan(0)
    expect(first.job_city_stats).toBeGreaterThan(0)
    expect(first.gate).toBe(count('cities') + count('providers') + count('jobs'))
  })

  // Control's and each shard's from their own folders (docs/scale.md), as the catalog's.
  it.each(['DB', 'CONTROL', 'SHARD_00', 'SHARD_01'])(
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
    const after = await tables(persistTo)
    for (const table of CATALOG_TABLES) expect(after[table]).toBe(first[table])
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
