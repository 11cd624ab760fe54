// Every environment of wrangler.toml declares what its layout needs (docs/scale.md): control and
// each shard, with the migrations folder of each, which `npm run deploy` applies in turn; a
// deploy refuses an environment that does not.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Environment } from '../../scripts/wrangler-config'
import { deployProblem, deployTarget, migratedDatabases } from '../../scripts/wrangler-config'

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-shards-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** wrangler.toml with its routes filled in, changed by `edit`: the environments as deployable. */
async function filled(edit: (toml: string) => string = (t) => t): Promise<string> {
  const config = join(dir, `${Math.random().toString(36).slice(2)}.toml`)
  const ours = await readFile('wrangler.toml', 'utf8')
  await writeFile(config, edit(ours.replaceAll('care.example', 'care-marketplace.com')))
  return config
}

describe.each<Environment>(['staging', 'production'])('the %s environment', (name) => {
  it('migrates control and each shard of its two-shard layout, and binds no other database', () => {
    const target = deployTarget(name)
    expect(target.layout).toBe(name)
    expect(migratedDatabases(target)).toEqual(['CONTROL', 'SHARD_00', 'SHARD_01'])
    expect(target.d1).toEqual({
      CONTROL: 'migrations/control',
      SHARD_00: 'migrations/catalog',
      SHARD_01: 'migrations/catalog',
    })
  })

  it('is refused with a layout no one compiled', async () => {
    const config = await filled((t) =>
      t.replace(`SHARD_LAYOUT = "${name}"`, 'SHARD_LAYOUT = "nine"'),
    )
    expect(deployProblem(deployTarget(name, config))).toBe(
      `wrangler.toml [env.${name}] SHARD_LAYOUT "nine" names no layout of src/catalog/placement.ts`,
    )
  })

  it('is refused without a shard its layout names, or with a shard migrated from elsewhere', async () => {
    const suffix = name === 'staging' ? '-staging' : ''
    const binding = `binding = "SHARD_01"\ndatabase_name = "care-shard-01${suffix}"\nmigrations_dir = "migrations/catalog"`
    const section = `[[env.${name}.d1_databases]]\n${binding}`
    const without = await filled((t) => t.replace(section, ''))
    expect(deployProblem(deployTarget(name, without))).toBe(
      `wrangler.toml [env.${name}] has no D1 binding SHARD_01`,
    )
    const elsewhere = await filled((t) =>
      t.replace(section, section.replace('migrations/catalog', 'migrations/control')),
    )
    expect(deployProblem(deployTarget(name, elsewhere))).toBe(
      `wrangler.toml [env.${name}] binding SHARD_01 migrates from migrations/control, not migrations/catalog`,
    )
  })
})

it('runs npm start and the tests on the two-shard layout, with its shards declared', async () => {
  const toml = await readFile('wrangler.toml', 'utf8')
  const top = toml.slice(0, toml.indexOf('[env.'))
  expect(top).toContain('SHARD_LAYOUT = "two"')
  for (const binding of ['CONTROL', 'SHARD_00', 'SHARD_01'])
    expect(top).toContain(`binding = "${binding}"`)
  // Control and the shards are the catalog's only databases, in every environment.
  const d1 = [...toml.matchAll(/d1_databases\]\]\nbinding = "(\w+)"/g)].map((m) => m[1])
  expect(new Set(d1)).toEqual(new Set(['CONTROL', 'SHARD_00', 'SHARD_01']))
  expect(d1).toHaveLength(9)
})
