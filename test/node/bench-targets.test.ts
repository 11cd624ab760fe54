// The bench's verdicts: a target is met or not by the row it names, and every target that is not
// met names the request whose profile the bench then shows (docs/performance.md).
import { describe, expect, it } from 'vitest'
import type { Row } from '../../scripts/bench/bench-catalog'
import type { Measured } from '../../scripts/bench/measure-route'
import { layoutTargets, scaleTargets, targets } from '../../scripts/bench/targets'

const measured = (m: Partial<Measured>): Measured => ({
  requests: 1000,
  rps: 100,
  p50: 10,
  p99: 20,
  cpu: 1,
  d1Cpu: 1,
  cache: {},
  errors: 0,
  ...m,
})
const staticString = (rps: number) => ({
  route: 'static',
  bytes: 40_000,
  measured: measured({ rps }),
})

const rows: Row[] = [
  {
    route: 'directory',
    cache: 'miss',
    path: '/babysitters/atlanta-ga',
    measured: measured({ cpu: 5.8, rps: 160 }),
    reference: null,
    js: null,
  },
  {
    route: 'directory',
    cache: 'miss',
    path: '/babysitters/athens-ga',
    tail: ['/babysitters/athens-ga', '/babysitters/macon-ga'],
    measured: measured({ cpu: 1.4, rps: 1300 }),
    reference: null,
    js: null,
  },
  {
    route: 'profile',
    cache: 'miss',
    path: '/p/julie-m-779',
    measured: measured({ cpu: 1.1 }),
    reference: null,
    js: null,
  },
  {
    route: 'directory',
    cache: 'hit',
    path: '/babysitters/atlanta-ga',
    measured: measured({ rps: 450 }),
    reference: staticString(1000),
    js: null,
  },
  {
    route: 'gate 404',
    cache: null,
    path: '/babysitters/nowhere-zz',
    measured: measured({ rps: 950 }),
    reference: { route: 'bare 404', bytes: null, measured: measured({ rps: 1000 }) },
    js: null,
  },
]
const peer = { name: 'Next', path: '/', bytes: 25_000, measured: measured({ rps: 400 }) }

describe('bench targets', () => {
  const ts = targets(rows, peer)
  const find = (start: string) => ts.find((t) => t.target.startsWith(start))

  it('judges each target by its own row', () => {
    expect(find('directory, miss: CPU')?.met).toBe(false)
    expect(find('profile, miss: CPU')?.met).toBe(true)
    expect(find('directory, hit')).toMatchObject({ measured: '0.45×', met: false })
    expect(find('gate 404')).toMatchObject({ measured: '0.95×', met: true })
    expect(find('directory, miss: ≥ 3×')).toMatchObject({ measured: '0.40×', met: false })
    expect(find('directory, tail miss: CPU')).toMatchObject({ measured: '1.40 ms', met: true })
  })

  it('names the request to profile for every target, as a miss or as served from the cache', () => {
    expect(find('directory, miss: CPU')?.profile).toEqual({
      path: '/babysitters/atlanta-ga',
      hit: false,
    })
    expect(find('directory, miss: ≥ 3×')?.profile).toEqual({
      path: '/babysitters/atlanta-ga',
      hit: false,
    })
    expect(find('directory, tail miss: CPU')?.profile).toEqual({
      path: '/babysitters/athens-ga',
      hit: false,
      tail: ['/babysitters/athens-ga', '/babysitters/macon-ga'],
    })
    expect(find('directory, hit')?.profile).toEqual({ path: '/babysitters/atlanta-ga', hit: true })
    expect(find('gate 404')?.profile).toEqual({ path: '/babysitters/nowhere-zz', hit: true })
  })

  it("compares the large catalog's p50 with the default's, row by row", () => {
    const large = rows.map((r) => ({
      ...r,
      measured: measured({ p50: r.route === 'profile' ? 13 : 11 }),
    }))
    const verdicts = scaleTargets(rows, large)
    expect(verdicts.find((t) => t.target.startsWith('profile'))?.met).toBe(false)
    expect(verdicts.find((t) => t.target.startsWith('directory, miss'))?.met).toBe(true)
  })

  it('takes a p50 one whole millisecond above the default as within what autocannon tells apart', () => {
    const at = (p50: number): Row[] =>
      rows.slice(0, 1).map((r) => ({ ...r, measured: measured({ p50 }) }))
    expect(scaleTargets(at(0), at(1))[0]).toMatchObject({
      met: true,
      measured: '1.0 / 0.0 ms = – (within 1 ms)',
    })
    expect(scaleTargets(at(2), at(3))[0]).toMatchObject({
      met: true,
      measured: '3.0 / 2.0 ms = 1.50× (within 1 ms)',
    })
    expect(scaleTargets(at(2), at(4))[0]?.met).toBe(false)
    expect(scaleTargets(at(10), at(12))[0]?.met).toBe(true)
  })

  it("compares each row on a sharded layout with the same row on one shard's", () => {
    const sharded = rows.map((r) => ({
      ...r,
      measured: measured({ p50: r.route === 'profile' ? 12.5 : 12 }),
    }))
    const verdicts = layoutTargets(rows, sharded, 'eight')
    expect(verdicts.find((t) => t.target.startsWith('profile'))).toMatchObject({
      target: "profile, miss: p50 on eight ≤ 1.2× one shard's",
      measured: '12.5 / 10.0 ms = 1.25×',
      met: false,
    })
    expect(verdicts.find((t) => t.target.startsWith('directory, miss'))?.met).toBe(true)
    expect(verdicts).toHaveLength(sharded.length)
  })
})
