import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { csrfToken } from '../../src/request/ops-access'
import type { LiveCounts } from '../../src/views/ops/health-views'
import worker from '../../src/worker'
import { aMessage } from '../sync/examples'
import { accessToken, EDITOR, PURGER, VIEWER } from '../support/access'
import { fetchPage, ORIGIN } from '../support/fetch-page'

// The console's catalog health page: what the consumer applied, the dead letters (which an
// editor replays through the same operation as POST /__ops/catalog/replay), the cron's steps and
// the gate. Dead letters come from the dead-letter queue's real consumer.

const as = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'cf-access-jwt-assertion': token, ...init.headers },
})

let ids = 0
/** `bodies` delivered to the worker's queue() as a batch of `queue`, as the queue would. */
async function deliver(queue: string, bodies: unknown[]): Promise<void> {
  // Each dead message is reported, and so logged as an error line: expected here.
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: `h${++ids}`, timestamp: new Date(), attempts: 1, body })),
  )
  const ctx = createExecutionContext()
  await worker.queue(batch, env, ctx)
  await getQueueResult(batch, ctx)
  errors.mockRestore()
}

/** A job in a city the catalog lacks, dead-lettered by the dead-letter queue's consumer. */
async function deadJob(id: number, cityId: number): Promise<number> {
  await deliver('catalog-changes-dead', [
    aMessage('job.upserted', (m) => {
      m.id = id
      m.entity.cityId = cityId
    }),
  ])
  const row = await env.CONTROL.prepare(
    `SELECT id FROM sync_dead WHERE json_extract(message, '$.id') = ? ORDER BY id DESC`,
  )
    .bind(id)
    .first<{ id: number }>()
  if (!row) throw new Error(`job ${id} was not dead-lettered`)
  return row.id
}

async function csrfOf(token: string): Promise<string> {
  const html = await (await fetchPage('/__ops/health', as(token))).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  if (!csrf) throw new Error('no CSRF token on the health page')
  return csrf
}

function replay(token: string, fields: Record<string, string>) {
  return fetchPage(
    '/__ops/health/replay',
    as(token, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    }),
  )
}

const state = async (deadId: number) =>
  env.CONTROL.prepare(
    `SELECT (SELECT replayed_at FROM sync_dead WHERE id = ?) AS replayed,
            (SELECT COUNT(*) FROM purge_log) AS audit`,
  )
    .bind(deadId)
    .first<{ replayed: number | null; audit: number }>()

describe('the catalog health page', () => {
  it('shows a viewer the changes applied by kind, the dead letters, the cron and the gate', async () => {
    await deliver('catalog-changes', [
      aMessage('activity.upserted', (m) => (m.id = 930000001)),
      aMessage('activity.upserted', (m) => (m.id = 930000002)),
      aMessage('provider.upserted', (m) => (m.id = 930000003)),
    ])
    const dead = await deadJob(930000004, 930000099)
    const res = await fetchPage('/__ops/health', as(await accessToken(VIEWER)))
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toMatch(/<th scope="row">activity\.upserted<\/th><td>\d+<\/td>/)
    expect(html).toMatch(/Newest change applied \d+ s ago/)
    expect(html).toContain(`<th scope="row">${dead}</th>`)
    expect(html).toContain('job.upserted 930000004 v')
    expect(html).toContain('city 930000099')
    for (const step of ['stats', 'gate', 'purges', 'audit', 'messages', 'sync'])
      expect(html).toContain(`<th scope="row">${step}</th>`)
    expect(html).toMatch(/Built .* ago .*slugs and ids, room for/)
    // A viewer only looks.
    expect(html).not.toContain('/__ops/health/replay')
    expect(html).toContain('replaying needs the editor role')
  })

  it('answers its counts as JSON for its island, the same the page embeds', async () => {
    const viewer = await accessToken(VIEWER)
    const counts = async () => {
      const res = await fetchPage('/__ops/live/health', as(viewer))
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      return res.json<LiveCounts>()
    }
    const kinds = (c: LiveCounts) =>
      Object.fromEntries(c.applied.byKind.map((k) => [k.kind, k.changes]))
    const before = await counts()
    await deliver('catalog-changes', [aMessage('activity.upserted', (m) => (m.id = 930000021))])
    await deadJob(930000022, 930000096)
    const after = await counts()
    expect(kinds(after)['activity.upserted']).toBe((kinds(before)['activity.upserted'] ?? 0) + 1)
    expect(after.deadOpen).toBe(before.deadOpen + 1)
    expect(after.applied.newestAt).toBeGreaterThanOrEqual(before.applied.newestAt ?? 0)
    // The page renders the counts and embeds them for its island to hydrate from.
    const html = await (await fetchPage('/__ops/health', as(viewer))).text()
    const embedded =
      /<script type="application\/json" id="live-counts-state">([^<]*)<\/script>/.exec(html)
    const shown = JSON.parse(embedded?.[1] ?? 'null') as LiveCounts
    expect(shown.deadOpen).toBe(after.deadOpen)
    expect(html).toContain(`<p>Open dead letters: ${after.deadOpen}.</p>`)
    const nobody = await fetchPage('/__ops/live/health')
    expect(nobody.status).toBe(401)
    await nobody.text()
  })

  it('refuses a viewer’s or a purger’s replay, and one without its CSRF token; nothing changes', async () => {
    const dead = await deadJob(930000011, 930000098)
    const before = await state(dead)
    const editor = await accessToken(EDITOR)
    const purger = await accessToken(PURGER)
    const refused = [
      await replay(await accessToken(VIEWER), { id: String(dead), csrf: 'x' }),
      // A purger's own CSRF token: the form is not on their page, but the role is what refuses.
      await replay(purger, { id: String(dead), csrf: await csrfToken(purger) }),
      await replay(editor, { id: String(dead) }),
      await replay(editor, { id: String(dead), csrf: 'stale' }),
    ]
    for (const res of refused) {
      expect(res.status).toBe(403)
      await res.text()
    }
    expect(await state(dead)).toEqual(before)
  })

  it('answers bad input with the form and the reason next to the field', async () => {
    const editor = await accessToken(EDITOR)
    const csrf = await csrfOf(editor)
    const before = await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM purge_log').first()
    const cases: [string, string][] = [
      ['', 'name a dead letter by its number'],
      ['abc', '&quot;abc&quot; is not a dead letter&#x27;s number'],
      ['987654321', 'there is no dead letter #987654321'],
    ]
    for (const [id, reason] of cases) {
      const res = await replay(editor, { id, csrf })
      const html = await res.text()
      expect(res.status, id).toBe(400)
      expect(html, id).toContain(`<p class="error" id="replay-id-error">${reason}</p>`)
      expect(html, id).toContain('aria-invalid="true"')
    }
    expect(await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM purge_log').first()).toEqual(before)
  })

  it('replays one dead letter for an editor: queued, marked, audited, then applied', async () => {
    const cityId = 930000097
    const dead = await deadJob(930000021, cityId)
    // The city the job waited for arrives, as any catalog change does.
    await deliver('catalog-changes', [aMessage('city.added', (m) => (m.id = cityId))])
    const editor = await accessToken(EDITOR)
    const res = await replay(editor, { id: `#${dead}`, csrf: await csrfOf(editor) })
    expect(res.status).toBe(303)
    const location = res.headers.get('location') ?? ''
    expect(location).toMatch(/^\/__ops\/health\?replayed=1&invalid=&open=\d+$/)
    expect((await state(dead))?.replayed).not.toBeNull()
    const audit = await env.CONTROL.prepare(
      'SELECT token_name, outcome FROM purge_log ORDER BY id DESC LIMIT 1',
    ).first()
    expect(audit).toEqual({ token_name: EDITOR, outcome: `dead letters replayed: 1 (#${dead})` })
    const shown = await (await fetchPage(location, as(editor))).text()
    expect(shown).toMatch(/Replayed: 1 sent back to the queue; \d+ open\./)
    // The local queue hands it to the worker's consumer, which applies it now.
    await vi.waitFor(
      async () =>
        expect(
          await env.CONTROL.prepare(
            'SELECT city_id FROM job_directory WHERE id = 930000021',
          ).first(),
        ).toEqual({
          city_id: cityId,
        }),
      { timeout: 20_000, interval: 100 },
    )
  })

  it('replays every open one at once, keeping a still invalid message dead', async () => {
    const editor = await accessToken(EDITOR)
    await deliver('catalog-changes-dead', [{ kind: 'job.upserted', id: 'not a number' }])
    const invalid = await env.CONTROL.prepare(
      `SELECT id FROM sync_dead WHERE message LIKE '%not a number%'`,
    ).first<{ id: number }>()
    await deadJob(930000031, 930000096)
    const res = await replay(editor, { all: '1', csrf: await csrfOf(editor) })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(new RegExp(`invalid=${invalid?.id}&open=1$`))
    const open = await env.CONTROL.prepare(
      'SELECT id FROM sync_dead WHERE replayed_at IS NULL',
    ).all<{
      id: number
    }>()
    expect(open.results).toEqual([{ id: invalid?.id }])
  })
})

describe('POST /__ops/catalog/replay', () => {
  const post = (body: string, token = 'test-sync-token') =>
    fetchPage('/__ops/catalog/replay', {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    })

  it('replays by id with the sync token, names missing ids, refuses bad bodies and tokens', async () => {
    const dead = await deadJob(930000041, 930000095)
    const wrong = await post('{}', 'wrong')
    expect(wrong.status).toBe(401)
    expect((await post('{"ids":["x"]}')).status).toBe(400)
    expect((await post('not json')).status).toBe(400)
    const missing = await post('{"ids":[987654321]}')
    expect(await missing.json()).toEqual({ error: 'no such dead letters', missing: [987654321] })
    const res = await post(JSON.stringify({ ids: [dead] }))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ replayed: [dead], refused: [], by: 'ops' })
  })
})
