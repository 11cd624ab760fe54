import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { applyAcross } from '../support/databases'
import type { CatalogMessage } from '../../src/sync/messages'
import { anIsolate, settled, textOf } from '../support/fetch-page'
import type { Draft } from './examples'
import { aMessage } from './examples'

// After each kind of change, every page that showed the old data is rendered again, and pages
// that did not are still served from the cache: the purge is derived from the change, in the
// change's own D1 batch, and seen by an isolate that did not apply it.

// A new provider id the gate lets through: within its margin above the ids it was built with
// (docs/sync.md, "The gate").
const ID =
  ((
    await env.CONTROL.prepare('SELECT MAX(id) AS id FROM provider_directory').first<{
      id: number
    }>()
  )?.id ?? 0) + 500
const PROFILE = `/p/maria-g-${ID}`
const JOB_ID =
  ((await env.CONTROL.prepare('SELECT MAX(id) AS id FROM job_directory').first<{ id: number }>())
    ?.id ?? 0) + 500
/** Pages no change of this file shows on: each must stay a hit. */
const UNTOUCHED = ['/nannies/boston-ma', '/senior-care/boston-ma', '/explore/d/cooking']

/** Serves each path until it is stored, then asks again: a hit. */
async function warm(paths: readonly string[]) {
  for (const path of paths) {
    await settled(path)
    expect([path, (await settled(path)).cache]).toEqual([path, 'HIT'])
  }
}

/** Applies `messages`, then asks for `paths` through another isolate: status, cache and body. */
async function afterChange(messages: CatalogMessage[], paths: readonly string[]) {
  await applyAcross(messages)
  const isolate = anIsolate()
  const pages: Record<string, { status: number; cache: string | null; body: string }> = {}
  for (const path of [...paths, ...UNTOUCHED]) {
    const { res, body, cache } = await isolate.settled(path)
    pages[path] = { status: res.status, cache, body }
  }
  for (const path of UNTOUCHED) expect([path, pages[path]?.cache]).toEqual([path, 'HIT'])
  return pages
}

const provider = (change: (m: Draft) => void = () => {}) =>
  aMessage('provider.upserted', (m) => {
    m.id = ID
    change(m)
  })
const listing = aMessage('provider-service.offered', (m) => {
  m.id = ID
  m.entity.rankScore = 10_000
})

describe('pages after a catalog change', () => {
  it('re-renders a provider’s profile and the listings showing it when the provider changes', async () => {
    await applyAcross([provider(), listing])
    const shown = [PROFILE, '/babysitters/atlanta-ga', '/babysitters/ga']
    await warm([...shown, ...UNTOUCHED])
    const pages = await afterChange(
      [provider((m) => ((m.entity.headline = 'Now also a swim teacher'), (m.version = 2e12)))],
      shown,
    )
    for (const path of shown) expect([path, pages[path]?.cache]).toEqual([path, 'MISS'])
    expect(pages[PROFILE]?.body).toContain('Now also a swim teacher')
  })

  it('re-renders the profile with the rating the remaining reviews give when a review goes', async () => {
    const review = (id: number, rating: number) =>
      aMessage('review.added', (m) => {
        m.id = id
        m.entity.providerId = ID
        m.entity.rating = rating
      })
    await applyAcross([review(930000011, 5), review(930000012, 1)])
    // Both reviews, as an isolate that has seen the change renders the profile and stores it.
    expect(textOf((await anIsolate().settled(PROFILE)).body)).toContain('★ 3.0 (2 reviews)')
    await warm([PROFILE, ...UNTOUCHED])
    const pages = await afterChange(
      [aMessage('review.removed', (m) => (m.id = 930000012))],
      [PROFILE],
    )
    expect(pages[PROFILE]?.cache).toBe('MISS')
    // The one review left: its rating and its count, not the average of both (3.0, 2 reviews).
    expect(textOf(pages[PROFILE]?.body ?? '')).toContain('★ 5.0 (1 review)')
  })

  it('re-renders the directory, the hub and the cost guide when a listing is withdrawn', async () => {
    const shown = ['/babysitters/atlanta-ga', '/local/atlanta-ga', '/cost/babysitters/atlanta-ga']
    await warm([...shown, ...UNTOUCHED])
    const pages = await afterChange(
      [aMessage('provider-service.withdrawn', (m) => (m.id = ID))],
      shown,
    )
    for (const path of shown) expect([path, pages[path]?.cache]).toEqual([path, 'MISS'])
    expect(pages['/babysitters/atlanta-ga']?.body).not.toContain(PROFILE)
  })

  it('re-renders the job listing and shows a new job’s page', async () => {
    const job = aMessage('job.upserted', (m) => {
      m.id = JOB_ID
      m.entity.validThrough = '2099-01-01T00:00:00Z'
      m.entity.rankScore = 10_000
    })
    const page = `/job/babysitter-for-two-kids-after-school-${JOB_ID}`
    await warm(['/babysitting-jobs/atlanta-ga', ...UNTOUCHED])
    expect((await settled(page)).res.status).toBe(404)
    const pages = await afterChange([job], ['/babysitting-jobs/atlanta-ga', page])
    expect(pages['/babysitting-jobs/atlanta-ga']?.cache).toBe('MISS')
    expect(pages['/babysitting-jobs/atlanta-ga']?.body).toContain(page)
    expect(pages[page]?.status).toBe(200)
  })

  it('re-renders an activity keyword’s page when an activity is added', async () => {
    await warm(['/explore/d/drums', ...UNTOUCHED])
    const pages = await afterChange(
      [
        aMessage('activity.upserted', (m) => {
          m.id = 930000031
          m.entity.name = 'Thunder drums'
          // An ongoing class: listed first.
          m.entity.startDate = null
          m.entity.endDate = null
          m.entity.isCamp = false
        }),
      ],
      ['/explore/d/drums'],
    )
    expect(pages['/explore/d/drums']?.cache).toBe('MISS')
    expect(pages['/explore/d/drums']?.body).toContain('Thunder drums')
  })

  it('serves a new city’s hub once the isolate has read the log of additions', async () => {
    expect((await settled('/local/pine-mountain-ga')).res.status).toBe(404)
    await warm(UNTOUCHED)
    await afterChange([aMessage('city.added')], [])
    const isolate = anIsolate()
    // The first check starts the isolate's read of the additions (src/gate/new-cities.ts).
    await isolate.settled('/local/pine-mountain-ga')
    expect((await isolate.settled('/local/pine-mountain-ga')).res.status).toBe(200)
  })

  it('answers 410 for a removed provider’s profile', async () => {
    await warm([PROFILE, ...UNTOUCHED])
    const pages = await afterChange(
      [aMessage('provider.removed', (m) => ((m.id = ID), (m.version = 3e12)))],
      [PROFILE],
    )
    expect(pages[PROFILE]?.status).toBe(410)
  })
})
