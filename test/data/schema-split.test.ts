// The schema in two folders (docs/scale.md): control's (migrations/control) and every shard's
// (migrations/catalog) define exactly the tables, indexes and triggers of schema.expected.json,
// beside this file: the catalog's people, listings, reviews and jobs on the shards, what is
// national or keyed by id on control, the stats of the cities on both, the sitemap triggers on
// control's directory, the directory and the outbox added. A migration changes that file with
// it (in the same review), and one added to the wrong side fails here.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { databasesOf } from '../../src/data/databases'
import { snapshotPart } from '../support/catalog-snapshot'
import { restoreDatabase } from '../support/snapshot'
import expected from './schema.expected.json'

interface Entry {
  type: string
  name: string
  sql: string
}

async function schemaOf(db: D1Database): Promise<Map<string, Entry>> {
  const { results } = await db
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
        WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
          AND name != 'd1_migrations'`,
    )
    .all<Entry>()
  return new Map(results.map((e) => [`${e.type} ${e.name}`, { ...e, sql: normalised(e.sql) }]))
}

/** A statement's text without its comments and with its spaces collapsed: what it defines. */
const normalised = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim()

/** The checked-in schema of a side, by type and name. */
const expectedOf = (side: keyof typeof expected) =>
  new Map(expected[side].map((e) => [`${e.type} ${e.name}`, { ...e, sql: normalised(e.sql) }]))

/**
 * What only the split has: the directory, and the outbox a shard's changes write their control
 * writes to (`outbox`), which control stages while it applies them (`outbox_staged`) and records
 * as applied (`outbox_applied`) (src/sync/outbox.ts).
 */
const ADDED = {
  control: [
    'table provider_directory',
    'table job_directory',
    'table directory_tombstones',
    'table outbox_applied',
    'table outbox_staged',
    'index provider_directory_moving',
    'index job_directory_moving',
  ],
  catalog: ['table outbox'],
}

describe('the schema in two folders', () => {
  it('defines on control and on a shard exactly the checked-in schema of each', async () => {
    const [control, shard] = await Promise.all([schemaOf(env.CONTROL), schemaOf(env.SHARD_00)])
    const sorted = (schema: Map<string, Entry>) =>
      [...schema.entries()].sort(([a], [b]) => (a < b ? -1 : 1))
    expect(sorted(control)).toEqual(sorted(expectedOf('control')))
    expect(sorted(shard)).toEqual(sorted(expectedOf('catalog')))
  })

  it('adds the directory and the outbox, and keeps the sitemap triggers on control’s directory', () => {
    const [control, shard] = [expectedOf('control'), expectedOf('catalog')]
    for (const key of ADDED.control) expect(control.has(key), key).toBe(true)
    for (const key of ADDED.catalog) expect(shard.has(key), key).toBe(true)
    for (const table of ['provider_directory', 'job_directory', 'cities'])
      for (const step of ['added', 'removed', 'split'])
        expect(control.has(`trigger ${table}_sitemap_${step}`), table).toBe(true)
    const triggers = [...shard.keys()].filter((k) => k.startsWith('trigger'))
    expect(triggers.filter((k) => k.includes('sitemap'))).toEqual([])
  })

  it('keeps the stats of the cities on control and the shards alike', () => {
    const [control, shard] = [expectedOf('control'), expectedOf('catalog')]
    for (const table of ['cities', 'service_city_stats', 'job_city_stats', 'city_service_mixes'])
      expect(shard.get(`table ${table}`), table).toEqual(control.get(`table ${table}`))
  })

  it('keeps the people, their listings and reviews, and the jobs on the shards alone', async () => {
    const control = await schemaOf(env.CONTROL)
    for (const table of ['providers', 'provider_services', 'reviews', 'jobs'])
      expect(control.has(`table ${table}`), table).toBe(false)
  })

  it('gives every shard of the layout the same schema', async () => {
    const [first, ...others] = await Promise.all(databasesOf(env).shards.map(schemaOf))
    for (const other of others) expect([...other.values()]).toEqual([...(first?.values() ?? [])])
  })

  it('starts control’s sitemap blocks empty, one per source', async () => {
    // Control as its migrations left it (the set-up restored the catalog over it).
    const migrated = (await snapshotPart('migrated')).CONTROL
    if (!migrated) throw new Error('the snapshot has no migrated control')
    await restoreDatabase(env.CONTROL, migrated)
    const { results } = await env.CONTROL.prepare(
      'SELECT source, first_id, size FROM sitemap_blocks ORDER BY source',
    ).all()
    expect(results).toEqual([
      { source: 'cities', first_id: -9223372036854775808, size: 0 },
      { source: 'jobs', first_id: -9223372036854775808, size: 0 },
      { source: 'providers', first_id: -9223372036854775808, size: 0 },
    ])
  })
})
