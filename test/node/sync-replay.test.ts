// `npm run sync -- replay` through the worker itself: a dead letter (a job in a city the catalog
// did not have) sent back to POST /__ops/catalog of a real `wrangler dev`, whose local queue
// hands it to the worker's consumer, which applies it now that its city has arrived.
import type { ChildProcess } from 'node:child_process'
import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { freePort, openHost } from '../../scripts/import/host'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const TOKEN = 'a-sync-token'

let dir: string
let dev: ChildProcess | undefined
let base: string
let job: { id: number; entity: { cityId: number } }

/** The rows of `sql` on the server's own D1 `binding`, read as `npm run purge -- --log` reads it. */
async function query<T>(binding: string, sql: string): Promise<T[]> {
  const { stdout } = await promisify(execFile)(
    'node_modules/.bin/wrangler',
    ['d1', 'execute', binding, '--local', '--persist-to', dir, '--json', '--command', sql],
    { env: ENV },
  )
  return (JSON.parse(stdout) as { results: T[] }[])[0]?.results ?? []
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-replay-'))
  job = JSON.parse(await readFile('docs/sync-examples/job.upserted.json', 'utf8')) as typeof job
  const host = await openHost({ local: true, persistTo: dir })
  try {
    await host.queryOn(
      'CONTROL',
      'INSERT INTO sync_dead (at, message, reason) VALUES (?, ?, ?)',
      Date.UTC(2026, 10, 1),
      JSON.stringify(job),
      `entity.cityId: city ${job.entity.cityId} is not in the catalog`,
    )
  } finally {
    await host.dispose()
  }
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  dev = spawn(
    'node_modules/.bin/wrangler',
    [
      ...['dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', '0'],
      ...['--persist-to', dir, '--var', `SYNC_TOKEN:${TOKEN}`],
    ],
    { env: ENV, detached: true, stdio: 'ignore' },
  )
  // Until wrangler dev answers: it announces nothing else a test can wait on.
  await vi.waitFor(
    async () => {
      const res = await fetch(`${base}/robots.txt`)
      if (!res.ok) throw new Error(`wrangler dev answered ${res.status}`)
    },
    { timeout: 180_000, interval: 250 },
  )
}, 300_000)

afterAll(async () => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM')
  await rm(dir, { recursive: true, force: true })
})

it('replays a dead letter through the worker, whose queue applies it once its city has come', async () => {
  // The city the job was waiting for arrives, as any catalog change does.
  const city = JSON.parse(await readFile('docs/sync-examples/city.added.json', 'utf8')) as {
    id: number
  }
  const arrived = await fetch(`${base}/__ops/catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ ...city, id: job.entity.cityId }]),
  })
  expect(arrived.status).toBe(202)

  const replay = await promisify(execFile)(
    'node_modules/.bin/tsx',
    ['scripts/sync.ts', 'replay', '--origin', base, '--persist-to', dir],
    { env: { ...ENV, SYNC_TOKEN: TOKEN } },
  )
  expect(replay.stdout).toContain(`replayed 1 messages through ${base}`)
  // Applied by the worker's consumer: a poll of the city's shard (whichever of the two local
  // ones it is) that ends as the row appears.
  await vi.waitFor(
    async () => {
      const sql = `SELECT id, city_id FROM jobs WHERE id = ${job.id}`
      const rows = [...(await query('SHARD_00', sql)), ...(await query('SHARD_01', sql))]
      expect(rows).toEqual([{ id: job.id, city_id: job.entity.cityId }])
    },
    { timeout: 120_000, interval: 1_000 },
  )
  // Marked replayed, and not dead-lettered again.
  expect(
    await query<{ replayed: number }>(
      'CONTROL',
      'SELECT COUNT(*) AS n, COUNT(replayed_at) AS replayed FROM sync_dead',
    ),
  ).toEqual([{ n: 1, replayed: 1 }])
}, 300_000)
