// `npm run sync -- dead | replay`: the dead letters of a real local D1 in a temporary folder
// listed with their reasons; a replay asked of the worker's replay endpoint with the token, the
// open ones in rounds until none is left. The endpoint is a capture server here;
// test/node/sync-replay.test.ts replays through the worker itself, and
// test/routes/ops-health.test.ts tests the endpoint's replay.
import { execFile } from 'node:child_process'
import { readFile, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openHost } from '../../scripts/import/host'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const REASON = 'cityId: no city 424242 in the catalog'

let dir: string
let server: Server
let origin: string
/** What the capture server answers, in turn: status and body. */
let answers: { status: number; body: unknown }[] = []
const received: { path: string | undefined; auth: string | undefined; body: unknown }[] = []
const messages: unknown[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-sync-'))
  const job = JSON.parse(await readFile('docs/sync-examples/job.upserted.json', 'utf8')) as {
    entity: Record<string, unknown>
  }
  messages.push({ ...job, entity: { ...job.entity, cityId: 424242 } }, { ...job, id: 77 })
  const host = await openHost({ local: true, persistTo: dir })
  try {
    for (const message of messages)
      await host.queryOn(
        'CONTROL',
        'INSERT INTO sync_dead (at, message, reason) VALUES (?, ?, ?)',
        Date.UTC(2026, 10, 1),
        JSON.stringify(message),
        REASON,
      )
  } finally {
    await host.dispose()
  }
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({ path: req.url, auth: req.headers.authorization, body: JSON.parse(body) })
      const answer = answers.shift() ?? { status: 500, body: {} }
      res.writeHead(answer.status).end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}, 120_000)

afterAll(async () => {
  server.close()
  await rm(dir, { recursive: true, force: true })
})

async function sync(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node_modules/.bin/tsx',
      ['scripts/sync.ts', ...args, '--persist-to', dir],
      { env: { ...ENV, SYNC_TOKEN: 'a-sync-token' } },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('npm run sync', () => {
  it('lists the dead-lettered messages with their reasons', async () => {
    const r = await sync(['dead'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`#1 2026-11-01T00:00:00.000Z job.upserted 900000001 v`)
    expect(r.stdout).toContain(`#2 2026-11-01T00:00:00.000Z job.upserted 77 v`)
    expect(r.stdout.match(new RegExp(REASON, 'g'))).toHaveLength(2)
  })

  it('says why when the worker refuses the replay', async () => {
    answers = [{ status: 503, body: { error: 'the queue refused them: down' } }]
    const r = await sync(['replay', '--origin', origin])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`${origin} refused the replay: 503 the queue refused them: down`)
  })

  it('asks for the open ones with the token, round after round until none is left', async () => {
    received.length = 0
    answers = [
      { status: 200, body: { replayed: [1], refused: [], remaining: 1 } },
      {
        status: 200,
        body: { replayed: [2], refused: [{ id: 3, reasons: ['kind: no'] }], remaining: 0 },
      },
    ]
    const r = await sync(['replay', '--origin', origin])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('still invalid, left dead: #3: kind: no')
    expect(r.stdout).toContain(`replayed 2 messages through ${origin}`)
    const asked = { path: '/__ops/catalog/replay', auth: 'Bearer a-sync-token', body: {} }
    expect(received).toEqual([asked, asked])
  })

  it('replays one by its id, and says which ids name no dead letter', async () => {
    received.length = 0
    answers = [
      { status: 200, body: { replayed: [2], refused: [], remaining: 0 } },
      { status: 404, body: { error: 'no such dead letters', missing: [9] } },
    ]
    expect((await sync(['replay', '--id', '2', '--origin', origin])).code).toBe(0)
    expect(received.map((r) => r.body)).toEqual([{ ids: [2] }])
    const missing = await sync(['replay', '--id', '9', '--origin', origin])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no dead-lettered message #9')
  })
})
