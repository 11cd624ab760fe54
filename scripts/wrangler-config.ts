// The deploy environments of wrangler.toml, as the ops scripts need them: the public origin a
// script talks to, and whether a route or custom domain is filled in.
import { readFileSync } from 'node:fs'
import { parse } from 'smol-toml'
import { usageError } from './cli'
import { layoutNamed, shardBindingName } from '../src/catalog/placement'

export const ENVIRONMENTS = ['staging', 'production'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export interface DeployTarget {
  name: Environment
  /** PUBLIC_ORIGIN of the environment: the origin of its pages and its purge endpoint. */
  origin: string
  /** The hostnames of its routes and custom domains. */
  hosts: string[]
  /** Its SHARD_LAYOUT (src/catalog/placement.ts). */
  layout: string
  /** Its D1 bindings, by name, with the migrations folder of each. */
  d1: Record<string, string>
}

interface D1Section {
  binding: string
  migrations_dir?: string
}

interface Route {
  pattern?: string
}

/** The environment named on a command line (`--env`), or a usage error listing the others. */
export function environmentOption(text: string): Environment {
  const name = ENVIRONMENTS.find((e) => e === text)
  return name ?? usageError(`--env takes ${ENVIRONMENTS.join(' or ')}: got "${text}"`)
}

/** What wrangler.toml says of an environment. */
export function deployTarget(name: Environment, configPath = 'wrangler.toml'): DeployTarget {
  const config = parse(readFileSync(configPath, 'utf8')) as {
    env?: Record<
      string,
      {
        vars?: { PUBLIC_ORIGIN?: string; SHARD_LAYOUT?: string }
        routes?: (Route | string)[]
        route?: Route | string
        d1_databases?: D1Section[]
      }
    >
  }
  const env = config.env?.[name] ?? {}
  const routes = [...(env.routes ?? []), ...(env.route ? [env.route] : [])]
  return {
    name,
    origin: env.vars?.PUBLIC_ORIGIN ?? '',
    hosts: routes
      .map((r) => (typeof r === 'string' ? r : (r.pattern ?? '')))
      .map((pattern) => pattern.replace(/^\*?\.?/, '').split('/')[0] ?? '')
      .filter(Boolean),
    layout: env.vars?.SHARD_LAYOUT ?? '',
    d1: Object.fromEntries(
      (env.d1_databases ?? []).map((d) => [d.binding, d.migrations_dir ?? '']),
    ),
  }
}

/**
 * The D1 bindings a deploy migrates, in order: control, then every shard of the environment's
 * layout (docs/scale.md). Empty when the layout is unknown.
 */
export function migratedDatabases(target: DeployTarget): string[] {
  const layout = layoutNamed(target.layout)
  if (!layout) return []
  const shards = Array.from({ length: layout.shards }, (_, n) => shardBindingName(n))
  return ['CONTROL', ...shards]
}

/** Why the environment's databases do not match its layout, or null. */
function layoutProblem(target: DeployTarget, where: string): string | null {
  if (!layoutNamed(target.layout))
    return `${where} SHARD_LAYOUT "${target.layout}" names no layout of src/catalog/placement.ts`
  const folder = (name: string) =>
    name === 'CONTROL' ? 'migrations/control' : 'migrations/catalog'
  for (const name of migratedDatabases(target)) {
    if (target.d1[name] === undefined) return `${where} has no D1 binding ${name}`
    if (target.d1[name] !== folder(name))
      return `${where} binding ${name} migrates from ${target.d1[name]}, not ${folder(name)}`
  }
  return null
}

/**
 * Why `target` cannot be deployed yet, or null: it needs a route or custom domain on a real
 * zone (the edge cache and purges do nothing on *.workers.dev) and an origin on one of them.
 */
export function deployProblem(target: DeployTarget): string | null {
  const where = `wrangler.toml [env.${target.name}]`
  if (!target.hosts.length)
    return `${where} has no route or custom domain: without one there is no edge cache and no purge (docs/operations.md)`
  const placeholder = target.hosts.find((h) => h === 'example' || h.endsWith('.example'))
  if (placeholder)
    return `${where} still has the placeholder route ${placeholder}: fill in the real hostname (docs/operations.md)`
  const origin = URL.canParse(target.origin) ? new URL(target.origin) : null
  if (!origin || !target.hosts.includes(origin.hostname))
    return `${where} PUBLIC_ORIGIN "${target.origin}" is not on its routes (${target.hosts.join(', ')})`
  return layoutProblem(target, where)
}
