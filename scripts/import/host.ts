// Where the import worker (import-worker.ts) runs, and the import's client of it. Locally, in
// Miniflare's workerd over the folder `wrangler dev` persists to (the migrations applied first,
// as `npm run seed` always did); for an environment, in `wrangler dev` with the environment's
// D1 databases and GATE as remote bindings. Either way each batch is one request, and one D1
// batch on each database it goes to.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'
import { convertV4MiniflareOptions, Miniflare } from 'miniflare'
import { parse, stringify } from 'smol-toml'
import { fail } from '../cli'
import type { Environment } from '../wrangler-config'
import { deployTarget, migratedDatabases } from '../wrangler-config'
import { layoutNamed, shardBindingName } from '../../src/catalog/placement'
import type { CatalogMessage } from '../../src/sync/messages'
import type { Checkpoint } from './checkpoint'
import type { Finished } from './finish'
import type { ApplyTarget } from './import-lines'
import type { BatchRequest, MigrateRequest, Migration } from './import-worker'

const WRANGLER_ENV = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
}

/**
 * Where the import runs: locally, on control and the shards of wrangler.toml's layout (or of
 * `layout`, another layout of src/catalog/placement.ts, its shards bound and migrated too: the
 * bench's eight-shard catalog, a re-pack's new layout), or on an environment's (`remoteConfig`).
 * Either way every batch goes, routed, to control and the shards, and the finish derives each
 * database's own rows (docs/scale.md).
 */
export type Target =
  { local: true; persistTo?: string; layout?: string } | { local: false; env: Environment }

export interface ImportHost extends ApplyTarget {
  checkpoint(): Promise<Checkpoint | null>
  /** The stats and the gate, derived from the whole catalog. */
  finish(now: Date): Promise<Finished>
  /** The gate alone; `ifMissing`: only when KV has none (then null when it has). */
  gate(now: Date, options?: { ifMissing?: boolean }): Promise<Finished | null>
  query<T>(sql: string, ...params: unknown[]): Promise<T[]>
  /** As `query` (which reads control), on the D1 binding named (CONTROL, SHARD_00…). */
  queryOn<T>(binding: string, sql: string, ...params: unknown[]): Promise<T[]>
  /** Applies the migrations the D1 `binding` has not recorded in d1_migrations, each in one D1 batch. */
  migrate(migrations: Migration[], binding?: string): Promise<void>
  /** Applies `messages` as the queue consumer does: one D1 batch, derivation and purges included. */
  changes(messages: CatalogMessage[]): Promise<void>
  /**
   * Applies the valid lines `items` across control and the shards as the queue consumer applies
   * a batch (the routed apply: moves, outbox, stats and purges included); throws, with why,
   * when any of them would be retried.
   */
  replay(items: readonly { text: string }[]): Promise<void>
  /** Empties control's catalog tables and the shards. */
  wipeSharded(): Promise<void>
  dispose(): Promise<void>
}

const compatibilityDate = (): string =>
  /compatibility_date = "([^"]+)"/.exec(readFileSync('wrangler.toml', 'utf8'))?.[1] ?? '2026-04-20'

/**
 * The local D1 bindings of wrangler.toml (its top level, which `npm start` and the tests run) and
 * the migrations folder of each: control and every shard (docs/scale.md).
 */
export function localDatabases(configPath = 'wrangler.toml'): Record<string, string> {
  const config = parse(readFileSync(configPath, 'utf8')) as {
    d1_databases?: { binding: string; migrations_dir?: string }[]
  }
  return Object.fromEntries(
    (config.d1_databases ?? []).map((d) => [d.binding, d.migrations_dir ?? '']),
  )
}

/**
 * The local D1 bindings of `layout` with their migrations folders: wrangler.toml's, and every
 * shard the layout names that wrangler.toml does not bind (the bench's eight shards).
 */
export function layoutDatabases(layout: string): Record<string, string> {
  const shards = layoutNamed(layout)?.shards
  if (shards === undefined) fail(`no layout of src/catalog/placement.ts is named "${layout}"`)
  const named: Record<string, string> = {}
  for (let n = 0; n < shards; n++) named[shardBindingName(n)] = 'migrations/catalog'
  return { ...named, ...localDatabases() }
}

/** The layout wrangler.toml's top level names (SHARD_LAYOUT in its vars). */
export function localLayout(configPath = 'wrangler.toml'): string {
  const config = parse(readFileSync(configPath, 'utf8')) as { vars?: { SHARD_LAYOUT?: string } }
  const layout = config.vars?.SHARD_LAYOUT
  if (!layout) fail(`${configPath} names no SHARD_LAYOUT in its [vars]`)
  return layout
}

/** The migrations of wrangler.toml's `migrations_dir`, in the order wrangler applies them. */
function localMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }))
}

/** The import worker (or another of `entry`), bundled for workerd into a folder of its own. */
export async function bundleWorker(entry = 'scripts/import/import-worker.ts'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'care-import-'))
  const outfile = join(dir, 'import-worker.js')
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'error',
  })
  return outfile
}

/**
 * Miniflare's workerd running `script` with wrangler.toml's local D1 bindings and GATE: kept under
 * `persistTo` (every binding's state under one root, as wrangler's `.wrangler/state/v3`), or in
 * memory without it.
 */
export function localWorker(
  script: string,
  {
    bindings,
    persistTo,
    databases = localDatabases(),
  }: { bindings: Record<string, string>; persistTo?: string; databases?: Record<string, string> },
): Miniflare {
  // The ids `wrangler dev` gives bindings without one: their names.
  // Miniflare 5 takes its options in a new shape; its converter reads the long-standing one.
  return new Miniflare(
    convertV4MiniflareOptions({
      scriptPath: script,
      modulesRoot: dirname(script),
      modules: true,
      compatibilityDate: compatibilityDate(),
      d1Databases: Object.fromEntries(Object.keys(databases).map((name) => [name, name])),
      kvNamespaces: { GATE: 'GATE' },
      bindings,
      ...(persistTo ? { resourcePersistencePath: persistTo } : {}),
    }),
  )
}

export async function openHost(target: Target): Promise<ImportHost> {
  const script = await bundleWorker()
  if (target.local) {
    const state = join(target.persistTo ?? '.wrangler/state', 'v3')
    const databases = target.layout ? layoutDatabases(target.layout) : localDatabases()
    const mf = localWorker(script, {
      bindings: { SHARD_LAYOUT: target.layout ?? localLayout() },
      persistTo: state,
      databases,
    })
    const host = client((await mf.ready).origin, () => mf.dispose())
    try {
      for (const [binding, dir] of Object.entries(databases))
        await host.migrate(localMigrations(dir), binding)
    } catch (error) {
      await host.dispose()
      fail(
        `the migrations could not be applied to the local D1: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    return host
  }
  const port = await freePort()
  const dev = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      '--config',
      remoteConfig(target.env, script),
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
    ],
    { env: WRANGLER_ENV, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve, reject) => {
    dev.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready on')) resolve()
    })
    dev.on('exit', (code) => reject(new Error(`wrangler dev exited (${code}) before it was ready`)))
  })
  return client(`http://127.0.0.1:${port}`, () => {
    dev.kill()
    return Promise.resolve()
  })
}

function client(origin: string, dispose: () => Promise<void>): ImportHost {
  /** Posts `body`, as JSON unless it is JSON text already. */
  const post = async (path: string, body: unknown): Promise<Response> => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const res = await fetch(origin + path, { method: 'POST', body: text })
    if (!res.ok) throw new Error(await res.text())
    return res
  }
  const now = (at: Date) => ({ now: at.toISOString() })
  return {
    async apply(items, checkpoint) {
      // A BatchRequest made of the lines themselves, rather than the messages stringified again.
      const messages = items.map((i) => i.text).join(',')
      await post('/batch', `{"messages":[${messages}],"checkpoint":${JSON.stringify(checkpoint)}}`)
    },
    migrate: async (migrations, binding = 'CONTROL') => {
      await post('/migrate', { binding, migrations } satisfies MigrateRequest)
    },
    changes: async (messages) => {
      await post('/changes', { messages, checkpoint: null } satisfies BatchRequest)
    },
    async replay(items) {
      await post('/replay', `{"messages":[${items.map((i) => i.text).join(',')}]}`)
    },
    wipeSharded: async () => {
      await post('/wipe', {})
    },
    answers: async () => {
      try {
        return (await (await post('/answers', {})).json()) === true
      } catch {
        return false
      }
    },
    checkpoint: async () => (await post('/checkpoint', {})).json(),
    finish: async (at) => (await post('/finish', now(at))).json(),
    gate: async (at, { ifMissing = false } = {}) =>
      (await post('/gate', { ...now(at), ifMissing })).json(),
    query: async (sql, ...params) => (await post('/query', { sql, params })).json(),
    queryOn: async (binding, sql, ...params) =>
      (await post('/query', { binding, sql, params })).json(),
    dispose,
  }
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address ? address.port : 0
}

/**
 * A wrangler configuration that runs the import worker (`main`) with the environment's GATE and
 * every D1 database its layout names (CONTROL and each shard: docs/scale.md), all remote
 * bindings, and its SHARD_LAYOUT: `wrangler dev` then runs it here, on the real databases and
 * namespace (after `wrangler login`), and each batch goes, routed, to control and the shards.
 */
export function remoteConfig(env: Environment, main: string, configPath = 'wrangler.toml'): string {
  const config = parse(readFileSync(configPath, 'utf8')) as {
    env?: Record<
      string,
      {
        d1_databases?: { binding: string; database_name?: string; database_id?: string }[]
        kv_namespaces?: { binding: string; id?: string }[]
      }
    >
  }
  const section = config.env?.[env] ?? {}
  const where = `wrangler.toml [env.${env}]`
  const target = deployTarget(env, configPath)
  const bindings = migratedDatabases(target)
  if (!bindings.length)
    fail(`${where} SHARD_LAYOUT "${target.layout}" names no layout of src/catalog/placement.ts`)
  const databases = bindings.map((binding) => {
    const db = section.d1_databases?.find((d) => d.binding === binding)
    if (!db?.database_id)
      fail(
        `${where} has no database_id for ${binding}: deploy the environment first (docs/operations.md)`,
      )
    const { database_name, database_id } = db
    return { binding, ...(database_name ? { database_name } : {}), database_id, remote: true }
  })
  const gate = section.kv_namespaces?.find((k) => k.binding === 'GATE')
  if (!gate?.id)
    fail(
      `${where} has no id for the GATE namespace: deploy the environment first (docs/operations.md)`,
    )
  const path = join(mkdtempSync(join(tmpdir(), 'care-import-')), 'wrangler.toml')
  writeFileSync(
    path,
    stringify({
      name: 'care-import',
      main,
      compatibility_date: compatibilityDate(),
      vars: { SHARD_LAYOUT: target.layout },
      d1_databases: databases,
      kv_namespaces: [{ binding: 'GATE', id: gate.id, remote: true }],
    }),
  )
  return path
}
