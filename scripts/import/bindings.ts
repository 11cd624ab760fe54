// The D1 and KV an import writes, through wrangler's platform proxy: the local ones `wrangler dev`
// reads (its persist folder, migrations applied first, as `npm run seed` always did), or an
// environment's real ones as remote bindings. Either way the import runs the same code on a real
// D1 binding.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, stringify } from 'smol-toml'
import { getPlatformProxy } from 'wrangler'
import { fail } from '../cli'
import type { Environment } from '../wrangler-config'

const WRANGLER_ENV = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
}

export type Target = { local: true; persistTo?: string } | { local: false; env: Environment }

export interface Bindings {
  env: Pick<Env, 'DB' | 'GATE'>
  dispose(): Promise<void>
}

/** The migrations, by wrangler itself (it records them in d1_migrations, as a remote apply does). */
export function applyLocalMigrations(persistTo?: string): void {
  try {
    execFileSync(
      'node_modules/.bin/wrangler',
      [
        ...['d1', 'migrations', 'apply', 'DB', '--local'],
        ...(persistTo ? ['--persist-to', persistTo] : []),
      ],
      {
        env: { ...WRANGLER_ENV, CI: 'true' }, // CI: no confirmation prompt
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
  } catch {
    fail('the migrations could not be applied to the local D1 (wrangler says why above)')
  }
}

export async function openBindings(target: Target): Promise<Bindings> {
  if (target.local) {
    applyLocalMigrations(target.persistTo)
    // `wrangler dev --persist-to DIR` keeps its state in DIR/v3; the proxy takes that folder itself.
    const persist = target.persistTo ? { path: join(target.persistTo, 'v3') } : true
    return getPlatformProxy<Env>({ persist, remoteBindings: false })
  }
  return getPlatformProxy<Env>({ configPath: remoteConfig(target.env), remoteBindings: true })
}

/**
 * A wrangler configuration with only the environment's DB and GATE, marked remote: the proxy
 * then talks to the real database and namespace (after `wrangler login`), and nothing else of
 * the worker is started.
 */
export function remoteConfig(env: Environment, configPath = 'wrangler.toml'): string {
  const config = parse(readFileSync(configPath, 'utf8')) as {
    compatibility_date?: string
    env?: Record<
      string,
      {
        d1_databases?: { binding: string; database_name?: string; database_id?: string }[]
        kv_namespaces?: { binding: string; id?: string }[]
      }
    >
  }
  const section = config.env?.[env] ?? {}
  const db = section.d1_databases?.find((d) => d.binding === 'DB')
  const gate = section.kv_namespaces?.find((k) => k.binding === 'GATE')
  const where = `wrangler.toml [env.${env}]`
  if (!db?.database_id)
    fail(`${where} has no database_id for DB: deploy the environment first (docs/operations.md)`)
  if (!gate?.id)
    fail(
      `${where} has no id for the GATE namespace: deploy the environment first (docs/operations.md)`,
    )
  const dir = mkdtempSync(join(tmpdir(), 'care-import-'))
  const path = join(dir, 'wrangler.toml')
  writeFileSync(
    path,
    stringify({
      name: 'care-import',
      compatibility_date: config.compatibility_date ?? '2026-04-20',
      d1_databases: [{ ...db, remote: true }],
      kv_namespaces: [{ binding: 'GATE', id: gate.id, remote: true }],
    }),
  )
  return path
}
