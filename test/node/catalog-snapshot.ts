// The test catalog imported once a run, before the workers project (vitest globalSetup): the
// snapshot worker (test/support/snapshot-worker.ts) runs the import's own code in Miniflare's
// workerd on local D1 and KV, with wrangler.toml's databases and the run's layout. Its rows are
// served on 127.0.0.1 (tens of MB: more than the pool's messages carry), and every test file
// fetches and restores them in a few batches (test/setup.ts) instead of importing again
// (docs/testing.md).
import { createServer } from 'node:http'
import type { TestProject } from 'vitest/node'
import { bundleWorker, localDatabases, localLayout, localWorker } from '../../scripts/import/host'
import type { CatalogSnapshot, SnapshotRequest } from '../support/snapshot-worker'

export default async function setup(project: TestProject) {
  const started = performance.now()
  const snapshot = await takeSnapshot(snapshotRequest(project))
  // Each part as JSON text, made once: every test file asks for control's and the shards'.
  const parts = new Map(
    Object.entries(snapshot).map(([part, rows]) => [part, JSON.stringify(rows)]),
  )
  const server = createServer((req, res) => {
    const body = parts.get((req.url ?? '').slice(1))
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
    res.end(body ?? '"no such part"')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('the snapshot server has no port')
  project.provide('catalogSnapshotOrigin', `http://127.0.0.1:${address.port}`)
  const size = [...parts.values()].reduce((sum, text) => sum + text.length, 0)
  console.log(
    `the test catalog imported once for the run: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(size / 1e6).toFixed(1)} MB of rows`,
  )
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

/** The workers project's catalog (its `provide`) and the migrations of each D1 binding. */
function snapshotRequest(project: TestProject): SnapshotRequest {
  const provided = project.getProvidedContext()
  const byFolder: Record<string, SnapshotRequest['migrations'][string]> = {
    'migrations/control': provided.controlMigrations,
    'migrations/catalog': provided.catalogMigrations,
  }
  const migrations = Object.fromEntries(
    Object.entries(localDatabases()).map(([binding, dir]) => {
      const list = byFolder[dir]
      if (!list) throw new Error(`no migrations provided for ${binding}'s folder ${dir}`)
      return [binding, list]
    }),
  )
  const input = {
    lines: provided.catalogLines,
    zipStatements: provided.zipStatements,
    now: provided.catalogNow,
  }
  return { migrations, input }
}

async function takeSnapshot(request: SnapshotRequest): Promise<CatalogSnapshot> {
  const script = await bundleWorker('test/support/snapshot-worker.ts')
  // The layout the pool's worker runs on: SHARD_LAYOUT when set, as vitest.config.ts.
  const mf = localWorker(script, {
    bindings: { SHARD_LAYOUT: process.env.SHARD_LAYOUT ?? localLayout() },
  })
  try {
    const res = await mf.dispatchFetch('http://snapshot.test/', {
      method: 'POST',
      body: JSON.stringify(request),
    })
    if (!res.ok) throw new Error(`the test catalog's snapshot failed: ${await res.text()}`)
    return (await res.json()) as CatalogSnapshot
  } finally {
    await mf.dispose()
  }
}
