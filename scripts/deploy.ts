// Deploys to one environment of wrangler.toml, in the documented order (docs/operations.md):
// the D1 migrations first, so the code never runs against a schema older than it needs, then the
// worker (wrangler's [build] builds the assets first).
//
//   npm run deploy -- --env staging
//   npm run deploy -- --env production
//
// Refuses an environment without a real route or custom domain: on *.workers.dev the Cache API
// does nothing, so the edge cache and purges would silently not work.
import { spawnSync } from 'node:child_process'
import { fail, parseCommandLine, runScript, usageError } from './cli'
import {
  deployProblem,
  deployTarget,
  environmentOption,
  migratedDatabases,
} from './wrangler-config'

const USAGE = `
npm run deploy -- --env staging|production [--config wrangler.toml]

Applies the D1 migrations of the environment (control, then every shard of its layout), then
deploys the worker to it.
`
const { values } = parseCommandLine(USAGE, {
  env: { type: 'string' },
  config: { type: 'string', default: 'wrangler.toml' },
})

await runScript(() => {
  if (!values.env) usageError('name the environment: --env staging or --env production')
  const target = deployTarget(environmentOption(values.env), values.config)
  const problem = deployProblem(target)
  if (problem) fail(`refusing to deploy: ${problem}`)
  const env = ['--env', target.name, '--config', values.config]
  // Control and every shard of the layout (docs/scale.md): a migration runs once a database.
  for (const binding of migratedDatabases(target))
    wrangler(['d1', 'migrations', 'apply', binding, '--remote', ...env])
  wrangler(['deploy', ...env])
  console.log(`deployed to ${target.name}: ${target.origin}`)
})

function wrangler(args: string[]): void {
  console.log(`> wrangler ${args.join(' ')}`)
  const run = spawnSync('node_modules/.bin/wrangler', args, { stdio: 'inherit' })
  if (run.status !== 0) fail(`wrangler ${args.slice(0, 2).join(' ')} failed: stopped here`)
}
