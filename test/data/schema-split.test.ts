// The schema split in two folders (docs/scale.md): control's (migrations/control) and every
// shard's (migrations/catalog) define together exactly what the single database's migrations/
// define, the sitemap triggers of providers and jobs moved to the directory, the directory and
// the outbox added. A migration added to one side and not the other fails here.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { databasesOf } from '../../src/data/databases'
import { snapshotPart } from '../support/catalog-snapshot'
import { restoreDatabase } from '../support/snapshot'

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
  return new Map(results.map((e) => [`${e.type} ${e.name}`, e]))
}

/** A sitemap trigger of the single database's providers or jobs, as control's directory has it. */
function onDirectory(entry: Entry): Entry {
  const table = (name: string) => (name === 'providers' ? 'provider' : 'job')
  return {
    type: entry.type,
    name: entry.name.replace(/^(providers|jobs)_/, (_, t: string) => `${table(t)}_directory_`),
    sql: entry.sql
      .replace(
        /^CREATE TRIGGER (providers|jobs)_/,
        (_, t: string) => `CREATE TRIGGER ${table(t)}_directory_`,
      )
      .replace(
        /\b(ON|FROM) (providers|jobs)\b/g,
        (_, w: string, t: string) => `${w} ${table(t)}_directory`,
      ),
  }
}

/**
 * What the split adds, with no single-database counterpart: the directory, and the outbox a
 * shard's changes write their control writes to (`outbox`), which control stages while it
 * applies them (`outbox_staged`) and records as applied (`outbox_applied`): one database has no
 * second database to write to (src/sync/outbox.ts).
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
  it('places each table, index and trigger of the single database on control or the shards, unchanged', async () => {
    const [single, control, shard] = await Promise.all([
      schemaOf(env.DB),
      schemaOf(env.CONTROL),
      schemaOf(env.SHARD_00),
    ])
    const placed = new Set<string>()
    for (const entry of single.values()) {
      const moved = /^(providers|jobs)_sitemap_/.test(entry.name) ? onDirectory(entry) : entry
      const key = `${moved.type} ${moved.name}`
      const found = [control.get(key), shard.get(key)].filter((e) => e !== undefined)
      expect(found.length, key).toBeGreaterThan(0)
      for (const e of found) expect(e.sql, key).toBe(moved.sql)
      placed.add(key)
    }
    const left = (schema: Map<string, Entry>) =>
      [...schema.keys()].filter((k) => !placed.has(k) && !k.startsWith('index sqlite_autoindex'))
    expect(left(control).sort()).toEqual(ADDED.control.sort())
    expect(left(shard).sort()).toEqual(ADDED.catalog.sort())
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

  it('starts control’s sitemap blocks as the single database’s migrations start them', async () => {
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
