// Runs in workerd before every test file, in that file's own storage and modules (so the
// worker's app starts with nothing kept in memory): the schema from migrations/, the test
// catalog, then what the cron derives from it (stats and the gate).
import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { memory } from '../src/app'
import { refreshDerived } from '../src/cron/refresh-derived'

await applyD1Migrations(env.DB, inject('migrations'))
const sql = inject('catalogSql')
for (let i = 0; i < sql.length; i += 50) {
  await env.DB.batch(sql.slice(i, i + 50).map((s) => env.DB.prepare(s)))
}
const failed = await refreshDerived(env, new Date(inject('catalogNow')), memory.derivedReads)
if (failed.length) throw new Error(`the cron's refresh failed: ${failed.join(', ')}`)
