// Runs in workerd before every test file, in that file's own storage: the schema from
// migrations/, the test catalog, then what the cron derives from it (stats and the gate).
import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { refreshDerived } from '../src/cron/refresh-derived'
import { forgetHotPages } from '../src/cache/hot-pages'
import { forgetDerivedReads } from '../src/data/db'
import { forgetGate } from '../src/gate/gate-store'

await applyD1Migrations(env.DB, inject('migrations'))
const sql = inject('catalogSql')
for (let i = 0; i < sql.length; i += 50) {
  await env.DB.batch(sql.slice(i, i + 50).map((s) => env.DB.prepare(s)))
}
await refreshDerived(env, new Date(inject('catalogNow')))
forgetGate()
forgetHotPages()
forgetDerivedReads()
