// A page's reads by role (src/request/page-reads.ts), from control and the shards of the test
// catalog (test/support/sharded-catalog.ts): every page the same as from the other layout's
// (one shard beside two: test/support/other-layout.ts), each read on the database its role
// names, one session a database.
import { env } from 'cloudflare:workers'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { KnownPurges } from '../../src/cache/generations'
import { createApp } from '../../src/app'
import { Memory } from '../../src/memory'
import { ROUTES } from '../../src/pages'
import type { SourcesOf } from '../../src/request/page-reads'
import { routedSources, sessionRule } from '../../src/request/page-reads'
import { cardLinks, sameDocument, settledThrough } from '../support/fetch-page'
import { shardedCatalog } from '../support/sharded-catalog'
import { onOtherLayout } from '../support/other-layout'
import { withFaults } from '../support/with-faults'

// Every request of this file renders: each page is asked twice, and the first stores its copy.
beforeEach(() => {
  vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)
  return () => vi.restoreAllMocks()
})

type Binding = 'CONTROL' | 'SHARD_00' | 'SHARD_01'
const BINDINGS: Binding[] = ['CONTROL', 'SHARD_00', 'SHARD_01']

interface Seen {
  /** Each statement prepared, by the binding it went to. */
  statements: Record<Binding, string[]>
  /** Each session opened, by binding. */
  sessions: Record<Binding, number>
}

/** `env` with every database watched: what each was asked, and how many sessions it opened. */
function watched(fail: Binding | null = null): { env: Env; seen: Seen } {
  const seen: Seen = {
    statements: { CONTROL: [], SHARD_00: [], SHARD_01: [] },
    sessions: { CONTROL: 0, SHARD_00: 0, SHARD_01: 0 },
  }
  const watch = (name: Binding): D1Database => {
    const prepare = (real: (sql: string) => D1PreparedStatement, sql: string) => {
      seen.statements[name].push(sql)
      if (name === fail) throw new Error('D1_ERROR: Network connection lost.')
      return real(sql)
    }
    return withFaults(env[name], {
      prepare,
      // A page's session: the purge store's own on control (the isolate learning its purges)
      // read nothing else, and are not counted.
      withSession: (withSession, constraint) => {
        let counted = false
        return withFaults(withSession(constraint), {
          prepare: (real, sql) => {
            if (!counted && !/\bpurge/.test(sql)) {
              counted = true
              seen.sessions[name]++
            }
            return prepare(real, sql)
          },
        })
      },
    })
  }
  const bindings = Object.fromEntries(BINDINGS.map((name) => [name, watch(name)]))
  return { env: { ...env, ...bindings }, seen }
}

/** `path` through a fresh app reading from `sources`, over `bindings`. */
async function render(sources: SourcesOf, path: string, bindings: Env = env) {
  const app = createApp(new Memory(), ROUTES, sources)
  const { res, body } = await settledThrough(app, path, {}, bindings)
  return {
    status: res.status,
    html: inOrder(sameDocument(body)),
    cache: res.headers.get('x-cache'),
  }
}

/**
 * A document with its streamed sections in the order of the page, whatever order they finished
 * in (sections read from two databases may finish in either order): React's swaps taken out.
 */
function inOrder(html: string): string {
  const bare = html.replace(/<script nonce="">[\s\S]*?<\/script>/g, (script) =>
    script.includes('$RC(') ? '' : script,
  )
  const at = bare.indexOf('<div hidden id="S:')
  if (at < 0) return bare
  const end = bare.lastIndexOf('</body>')
  const sections = bare.slice(at, end).split(/(?=<div hidden id="S:)/)
  return bare.slice(0, at) + sections.sort().join('') + bare.slice(end)
}

const readsCatalog = (sql: string) => /\b(provider_services|providers|jobs|reviews)\b/.test(sql)

const PAGES = [
  '/babysitters/atlanta-ga',
  '/babysitters/denver-co?sort=newest',
  '/babysitters/ga',
  '/nannies/co',
  '/babysitting-jobs/atlanta-ga',
  '/local/denver-co',
  '/cost/nannies/denver-co',
  '/tutors',
  '/',
  '/cost/nannies',
  '/adult-care',
  '/explore/d/music',
]
const SEARCHES = ['30303', 'Atlanta', 'Springfield', 'Quietville, GA'].map(
  (place) => `/search?${new URLSearchParams({ service: 'babysitters', place }).toString()}`,
)

/** The sitemap files the index `html` lists. */
const sitemapFiles = (html: string) =>
  [...html.matchAll(/<loc>[^<]*(\/sitemaps\/[^<]+)<\/loc>/g)].map((m) => m[1] ?? '')

/** A profile of a city's directory, and a job of that city, as `html` of each links them. */
function entitiesIn(directory: string, jobs: string) {
  const job = /href="(\/job\/[^"]+)"/.exec(jobs)?.[1]
  return { profile: cardLinks(directory)[0] ?? '', job: job ?? '' }
}

/** Every page this file compares, rendered from the other layout's databases (never stored). */
const other = await onOtherLayout(async (bindings) => {
  vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)
  try {
    const rendered = new Map<string, Awaited<ReturnType<typeof render>>>()
    const renderAll = async (paths: string[]) => {
      for (const path of paths) rendered.set(path, await render(routedSources, path, bindings))
    }
    await renderAll([...PAGES, ...SEARCHES, '/sitemap.xml'])
    await renderAll(sitemapFiles(rendered.get('/sitemap.xml')?.html ?? ''))
    for (const city of ['atlanta-ga', 'denver-co']) {
      await renderAll([`/babysitters/${city}`, `/babysitting-jobs/${city}`])
      const { profile, job } = entitiesIn(
        rendered.get(`/babysitters/${city}`)?.html ?? '',
        rendered.get(`/babysitting-jobs/${city}`)?.html ?? '',
      )
      await renderAll([profile, job])
    }
    return rendered
  } finally {
    vi.restoreAllMocks()
  }
})

/** `path` as the other layout rendered it. */
function otherRender(path: string) {
  const found = other.get(path)
  if (!found) throw new Error(`the other layout did not render ${path}`)
  return found
}

beforeAll(() => shardedCatalog(), 60_000)

describe("a page's reads by role", () => {
  // Atlanta is on SHARD_00, the rest of Georgia and Colorado on SHARD_01 (the `two` layout).
  it.each(PAGES)(
    'renders %s from control and the shards exactly as the other layout',
    async (path) => {
      const single = otherRender(path)
      const routed = await render(routedSources, path)
      expect(single.status).toBe(200)
      expect(routed.status).toBe(200)
      // Rendered, not the copy the first render stored.
      expect(routed.cache).toBe('MISS')
      expect(routed.html).toBe(single.html)
    },
  )

  it('renders every kind of sitemap from control exactly as the other layout', async () => {
    const index = otherRender('/sitemap.xml')
    const files = sitemapFiles(index.html)
    expect(files.some((f) => f.includes('provider'))).toBe(true)
    expect(files.some((f) => f.includes('job'))).toBe(true)
    for (const file of ['/sitemap.xml', ...files]) {
      const { env: bindings, seen } = watched()
      const routed = await render(routedSources, file, bindings)
      expect(routed.status, file).toBe(200)
      expect(routed.html, file).toBe(otherRender(file).html)
      expect([...seen.statements.SHARD_00, ...seen.statements.SHARD_01], file).toEqual([])
    }
  })

  it('answers a search from control exactly as the other layout', async () => {
    for (const path of SEARCHES) {
      const single = otherRender(path)
      const routed = await render(routedSources, path)
      expect([routed.status, routed.html], path).toEqual([single.status, single.html])
    }
  })

  it("reads a city's catalog from its shard alone, a split state's from each of its shards", async () => {
    const atlanta = watched()
    await render(routedSources, '/babysitters/atlanta-ga', atlanta.env)
    expect(atlanta.seen.statements.SHARD_00.filter(readsCatalog)).not.toEqual([])
    expect(atlanta.seen.statements.SHARD_01).toEqual([])

    const denver = watched()
    await render(routedSources, '/babysitting-jobs/denver-co', denver.env)
    expect(denver.seen.statements.SHARD_01.filter(readsCatalog)).not.toEqual([])
    expect(denver.seen.statements.SHARD_00).toEqual([])

    const georgia = watched()
    await render(routedSources, '/babysitters/ga', georgia.env)
    expect(georgia.seen.statements.SHARD_00.filter(readsCatalog)).not.toEqual([])
    expect(georgia.seen.statements.SHARD_01.filter(readsCatalog)).not.toEqual([])
  })

  it('reads no shard for a national page, the home page or an activity page', async () => {
    for (const path of ['/tutors', '/', '/cost/nannies', '/explore/d/music']) {
      const { env: bindings, seen } = watched()
      expect((await render(routedSources, path, bindings)).status).toBe(200)
      expect(seen.statements.CONTROL, path).not.toEqual([])
      expect([...seen.statements.SHARD_00, ...seen.statements.SHARD_01], path).toEqual([])
    }
  })

  it('opens one session a database the page reads, and none for one it does not', async () => {
    const { env: bindings, seen } = watched()
    await render(routedSources, '/cost/nannies/denver-co', bindings)
    expect(seen.sessions.CONTROL).toBe(1)
    expect(seen.sessions.SHARD_01).toBe(1)
    expect(seen.sessions.SHARD_00).toBe(0)
  })

  it("fails only the pages of a failing shard's cities", async () => {
    const { env: bindings } = watched('SHARD_01')
    expect((await render(routedSources, '/babysitters/denver-co', bindings)).status).toBe(503)
    expect((await render(routedSources, '/babysitters/atlanta-ga', bindings)).status).toBe(200)
    expect((await render(routedSources, '/tutors', bindings)).status).toBe(200)
  })
})

describe("a profile's and a job's reads", () => {
  /** A profile of a city on `SHARD_NN`'s, and a job of that city. */
  async function entitiesOf(city: string) {
    const directory = await render(routedSources, `/babysitters/${city}`)
    const jobs = await render(routedSources, `/babysitting-jobs/${city}`)
    return entitiesIn(directory.html, jobs.html)
  }

  it.each(['atlanta-ga', 'denver-co'])(
    'render from the shard the directory names exactly as the other layout (%s)',
    async (city) => {
      const { profile, job } = await entitiesOf(city)
      for (const path of [profile, job]) {
        expect(path).toMatch(/^\/(p|job)\//)
        const single = otherRender(path)
        const routed = await render(routedSources, path)
        expect(single.status, path).toBe(200)
        expect(routed.status, path).toBe(200)
        expect(routed.html, path).toBe(single.html)
      }
    },
  )

  it("read control's directory, then the entity's rows from its shard alone", async () => {
    const { profile } = await entitiesOf('atlanta-ga')
    const { env: bindings, seen } = watched()
    await render(routedSources, profile, bindings)
    expect(
      seen.statements.CONTROL.filter((sql) => sql.includes('provider_directory')),
    ).toHaveLength(1)
    expect(seen.statements.SHARD_00.filter(readsCatalog)).not.toEqual([])
    expect(seen.statements.SHARD_01).toEqual([])
  })

  it('answer 410 for a provider the directory holds a tombstone of, 404 for one it does not hold', async () => {
    const directory = await render(routedSources, '/babysitters/denver-co')
    const [removed, unknown] = cardLinks(directory.html)
    const idOf = (path = '') => Number(/-(\d+)$/.exec(path)?.[1])
    // Known to the gate, gone from the directory: one with a tombstone (the sync removed it),
    // one without.
    await env.CONTROL.batch([
      env.CONTROL.prepare('DELETE FROM provider_directory WHERE id IN (?, ?)').bind(
        idOf(removed),
        idOf(unknown),
      ),
      env.CONTROL.prepare('INSERT INTO directory_tombstones (key, version) VALUES (?, 1)').bind(
        `provider:${idOf(removed)}`,
      ),
    ])
    const { env: bindings, seen } = watched()
    expect((await render(routedSources, removed ?? '', bindings)).status).toBe(410)
    expect((await render(routedSources, unknown ?? '', bindings)).status).toBe(404)
    // Decided by the directory: no shard read.
    expect([...seen.statements.SHARD_00, ...seen.statements.SHARD_01]).toEqual([])
  })
})

describe("a database's session rule", () => {
  it('reads at the bookmark of a purge on control only, a shard at its primary then', async () => {
    const now = Date.now()
    const purges = new KnownPurges()
    await purges.refresh(env.CONTROL)
    const tags = ['city:austin-tx']
    expect(sessionRule(purges, tags, false, now).constraint).toBe('first-unconstrained')
    purges.recordWritten(tags, now - 1_000, 9, 'bookmark-b')
    expect(sessionRule(purges, tags, true, now).constraint).toBe('bookmark-b')
    expect(sessionRule(purges, tags, false, now)).toEqual({
      constraint: 'first-primary',
      since: null,
      covers: 0,
    })
  })
})
