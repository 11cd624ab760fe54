// The routing table from a place to its database (docs/scale.md): every layout places every
// state and every city of the test catalog on a shard it has, and the environment's bindings are
// the shards its layout names.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { stateOfCitySlug } from '../../src/catalog/cities'
import type { Layout } from '../../src/catalog/placement'
import { LAYOUTS, shardBindingName, shardOfCity, shardsOfState } from '../../src/catalog/placement'
import { STATES } from '../../src/catalog/states'
import { databasesOf, LayoutError } from '../../src/data/databases'

const codes = Object.keys(STATES).map((code) => code.toLowerCase())

describe.each(Object.entries(LAYOUTS) as [string, Layout][])('the %s layout', (_, layout) => {
  it('places every state on one of its shards, and each listed city in a state it knows', () => {
    expect(Object.keys(layout.states).sort()).toEqual([...codes].sort())
    for (const shard of [...Object.values(layout.states), ...Object.values(layout.cities)]) {
      expect(Number.isInteger(shard) && shard >= 0 && shard < layout.shards).toBe(true)
    }
    for (const slug of Object.keys(layout.cities)) expect(codes).toContain(stateOfCitySlug(slug))
  })

  it('puts a city it does not list (one added after the deploy) on its state’s shard', () => {
    for (const state of codes)
      expect(shardOfCity(layout, `a-town-added-today-${state}`)).toBe(layout.states[state])
  })
})

describe('the two-shard layout the tests and npm start run on', () => {
  const two = LAYOUTS.two

  it('splits Georgia: Atlanta on the first shard, its neighbours on the second', () => {
    expect(shardOfCity(two, 'atlanta-ga')).toBe(0)
    expect(shardOfCity(two, 'marietta-ga')).toBe(1)
    expect(shardsOfState(two, 'ga')).toEqual([0, 1])
    expect(shardsOfState(two, 'ma')).toEqual([0])
    expect(shardsOfState(two, 'wa')).toEqual([1])
  })

  it('has no shard for a slug of no state the product lists', () => {
    expect(shardOfCity(two, 'atlantis-zz')).toBeNull()
    expect(shardOfCity(two, 'atlanta')).toBeNull()
    expect(shardsOfState(two, 'zz')).toEqual([])
  })
})

describe('databasesOf', () => {
  it('gives the environment’s bindings: control, and each shard of its layout by number', () => {
    const databases = databasesOf({ ...env, SHARD_LAYOUT: 'two' })
    expect(databases.control).toBe(env.CONTROL)
    expect(databases.shards).toEqual([env.SHARD_00, env.SHARD_01])
    expect(databases.ofCity('atlanta-ga')).toEqual({ shard: 0, db: env.SHARD_00 })
    expect(databases.ofCity('seattle-wa')).toEqual({ shard: 1, db: env.SHARD_01 })
    expect(databases.ofCity('atlantis-zz')).toBeNull()
    expect(databases.ofState('ga').map((s) => s.db)).toEqual([env.SHARD_00, env.SHARD_01])
  })

  it('gives the one-shard layout its one shard', () => {
    const databases = databasesOf({ ...env, SHARD_LAYOUT: 'one' })
    expect(databases.shards).toEqual([env.SHARD_00])
    expect(databases.ofCity('seattle-wa')).toEqual({ shard: 0, db: env.SHARD_00 })
  })

  it('runs the tests on the layout SHARD_LAYOUT names, two shards unless told otherwise', () => {
    expect(databasesOf(env).shards).toEqual(
      env.SHARD_LAYOUT === 'one' ? [env.SHARD_00] : [env.SHARD_00, env.SHARD_01],
    )
  })

  it('refuses a layout no one compiled, and a shard with no binding, saying which', () => {
    expect(() => databasesOf({ ...env, SHARD_LAYOUT: 'three' })).toThrow(
      new LayoutError('SHARD_LAYOUT names no layout: "three"'),
    )
    const withoutSecond = { ...env, SHARD_LAYOUT: 'two', SHARD_01: undefined }
    expect(() => databasesOf(withoutSecond)).toThrow(
      new LayoutError(`layout two has shard 1, but no ${shardBindingName(1)} binding`),
    )
  })

  it('finds each city of the test catalog a shard, and the catalog fills both', async () => {
    const { results } = await env.CONTROL.prepare('SELECT slug FROM cities').all<{ slug: string }>()
    const two = databasesOf({ ...env, SHARD_LAYOUT: 'two' })
    const shards = results.map(({ slug }) => two.ofCity(slug)?.shard)
    expect(shards).not.toContain(undefined)
    expect(new Set(shards)).toEqual(new Set([0, 1]))
  })
})
