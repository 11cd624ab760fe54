import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REFRESH_MS } from '../../src/cache/generations'
import { buildGate } from '../../src/gate/build-gate'
import { NEW_ID_MARGIN } from '../../src/gate/gate-filter'
import { readGate, saveGate } from '../../src/gate/gate-store'
import { applyAcross } from '../support/databases'
import type { CatalogMessage } from '../../src/sync/messages'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, ORIGIN } from '../support/fetch-page'
import { withStatementFaults } from '../support/with-faults'
import { aMessage } from './examples'

// Never a false 404 (docs/sync.md, "The gate"): an isolate that refused a new provider's or a
// new city's page before the change serves it as soon as it has seen the change's purge, however
// far the id is above what the gate was built with; a removed provider's profile is gone (410).

const built = await readGate(env.GATE)
if (!built) throw new Error('setup saved no gate')
/** Far above the ids the gate's margin lets through unseen. */
const FAR = built.meta.watermarks.provider + NEW_ID_MARGIN + 1_000
/** Within the margin: D1 decides, and its 404 is stored briefly. */
const NEAR =
  ((
    await env.CONTROL.prepare('SELECT MAX(id) AS id FROM provider_directory').first<{
      id: number
    }>()
  )?.id ?? 0) + 700
const profile = (id: number) => `/p/maria-g-${id}`
const CITY_HUB = '/local/pine-mountain-ga'

const provider = (id: number, version = 1e12): CatalogMessage[] => [
  aMessage('provider.upserted', (m) => ((m.id = id), (m.version = version))),
  aMessage('provider-service.offered', (m) => ((m.id = id), (m.version = version))),
]

/** The isolate once REFRESH_MS have passed and a page has made it read the purges again. */
async function purgesSeen(isolate: Isolate) {
  vi.setSystemTime(Date.now() + REFRESH_MS)
  await isolate.settled('/nannies/denver-co')
}

async function statusOf(isolate: Isolate, path: string) {
  const { res, body, cache } = await isolate.settled(path)
  return { status: res.status, body, cache }
}

describe('the gate after a catalog change', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }))
  afterEach(() => vi.useRealTimers())

  it('serves a new provider far above the margin, and a new city, in an isolate that refused them', async () => {
    const isolate = anIsolate()
    await isolate.settled('/nannies/denver-co')
    expect((await statusOf(isolate, profile(FAR))).status).toBe(404)
    expect((await statusOf(isolate, CITY_HUB)).status).toBe(404)

    // Applied elsewhere (the consumer's isolate): this one learns of it from the purge store.
    await applyAcross([aMessage('city.added'), ...provider(FAR)])
    await purgesSeen(isolate)
    const page = await statusOf(isolate, profile(FAR))
    expect(page.status).toBe(200)
    expect(page.body).toContain('Patient babysitter')
    expect((await statusOf(isolate, CITY_HUB)).status).toBe(200)
    // And through the fast path too, now that the additions are current.
    expect((await statusOf(isolate, profile(FAR))).status).toBe(200)
  })

  it('re-renders a stored 404 of a provider within the margin once it is added', async () => {
    const isolate = anIsolate()
    await isolate.settled('/nannies/denver-co')
    expect(await statusOf(isolate, profile(NEAR))).toMatchObject({ status: 404 })
    expect(await statusOf(isolate, profile(NEAR))).toMatchObject({ status: 404, cache: 'HIT' })
    await applyAcross(provider(NEAR))
    await purgesSeen(isolate)
    expect(await statusOf(isolate, profile(NEAR))).toMatchObject({ status: 200, cache: 'MISS' })
  })

  it('answers 410 for a removed provider, before and after the gate is built again', async () => {
    const isolate = anIsolate()
    await applyAcross(provider(FAR + 1))
    expect((await statusOf(isolate, profile(FAR + 1))).status).toBe(200)
    await applyAcross([aMessage('provider.removed', (m) => ((m.id = FAR + 1), (m.version = 2e12)))])
    await purgesSeen(isolate)
    const gone = await statusOf(isolate, profile(FAR + 1))
    expect(gone.status).toBe(410)
    expect(gone.body).toContain('This page has been removed')

    await saveGate(env.GATE, await buildGate(env.CONTROL, new Date()))
    expect((await statusOf(anIsolate(), profile(FAR + 1))).status).toBe(410)
    // A provider never in the catalog is still a 404: the directory has no row, nor a tombstone.
    expect((await statusOf(anIsolate(), profile(FAR + 50))).status).toBe(404)
  })

  it('lets D1 decide when the additions cannot be read in time, rather than refuse', async () => {
    const isolate = anIsolate()
    await isolate.settled('/nannies/denver-co')
    await applyAcross(provider(FAR + 2))
    vi.setSystemTime(Date.now() + REFRESH_MS)
    await isolate.settled('/nannies/denver-co')
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const CONTROL = withStatementFaults(env.CONTROL, (sql) =>
      sql.includes('city_additions') ? { all: async (read) => (await held, read()) } : undefined,
    )
    const ctx = createExecutionContext()
    const res = await isolate.worker.fetch(
      new Request(ORIGIN + profile(FAR + 2)),
      { ...env, CONTROL },
      ctx,
    )
    // Answered while the read of the additions is still held: the page, from D1.
    expect(res.status).toBe(200)
    await res.body?.cancel()
    release()
    await waitOnExecutionContext(ctx)
  })
})
