// `npm start`: seeds the local D1 (scripts/seed.ts) and serves it with `wrangler dev`, the two
// started side by side rather than one after the other. While the seed runs, wrangler dev loads,
// reads its configuration and builds the assets; its build then waits for the seed
// (scripts/seed-gate.ts), and only after it does wrangler dev bundle the worker, start it and
// open its port. So the seed is the only writer of the D1 while it runs, and the first page
// comes from the whole catalog. A failed seed stops wrangler dev and ends `npm start` with the
// seed's status; wrangler dev ending (Ctrl-C, `x`) stops the seed; a signal stops both.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { startTurnstileStandIn, TURNSTILE_TEST } from './turnstile-stand-in'
import { DEV_KEYS_FILE, DEV_PEOPLE, developmentKeys, developmentToken } from './access-dev'
import { openSeedGate, SEED_GATE } from './seed-gate'

const USAGE = `
npm start -- [wrangler dev's options] [the seed's: --scale N --cities N --seed N --force --large]

Seeds the local D1 unless it is up to date (npm run seed) and runs \`wrangler dev\` on it as
"development", with the local purge and sync tokens, and a development key pair standing in for
Cloudflare Access (kept in ${DEV_KEYS_FILE}): it prints the ops console's sign-in links.
--persist-to DIR goes to both.
`

/** The seed's options that take a value, and its flags; --persist-to is wrangler dev's too. */
const SEED_VALUES = ['--scale', '--cities', '--seed']
const SEED_FLAGS = ['--force', '--large']
const SHARED = '--persist-to'

const DEV_VARS = [
  '--var',
  'ENVIRONMENT:development',
  '--var',
  'PURGE_TOKEN:dev-purge-token',
  '--var',
  'SYNC_TOKEN:dev-sync-token',
]

/** The command line split between the seed and wrangler dev, each option kept in its form. */
export function splitArgs(args: readonly string[]): { seed: string[]; dev: string[] } {
  const seed: string[] = []
  const dev: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const [name = '', inline] = arg.split(/=(.*)/s)
    const withValue = [...SEED_VALUES, SHARED].includes(name) && inline === undefined
    const taken = withValue && i + 1 < args.length ? [arg, args[++i] ?? ''] : [arg]
    const forSeed = [...SEED_VALUES, ...SEED_FLAGS, SHARED].includes(name)
    if (forSeed) seed.push(...taken)
    if (!forSeed || name === SHARED) dev.push(...taken)
  }
  return { seed, dev }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE.trim())
    return
  }
  const args = splitArgs(argv)
  const env = {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
  }
  const access = developmentKeys(DEV_KEYS_FILE)
  await printSignIns(access, portOf(args.dev))
  const gate = await openSeedGate()
  const seed = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', ...args.seed], {
    stdio: 'inherit',
    env,
  })
  // Turnstile's siteverify answered on 127.0.0.1, for its test keys (docs/hardening.md).
  const turnstile = await startTurnstileStandIn()
  const vars = [
    ...DEV_VARS,
    ...['--var', `ACCESS_JWKS:${access.jwks}`],
    ...['--var', `TURNSTILE_VERIFY_URL:${turnstile.verifyUrl}`],
    ...['--var', `TURNSTILE_SECRET_KEY:${TURNSTILE_TEST.secretPasses}`],
  ]
  const dev = spawn('node_modules/.bin/wrangler', ['dev', ...vars, ...args.dev], {
    stdio: 'inherit',
    env: { ...env, [SEED_GATE]: gate.url },
  })
  // The status npm start ends with: the seed's when it failed, else wrangler dev's.
  let status: number | undefined
  // A signal came or wrangler dev ended: the seed's end is then no failure to report.
  let stopping = false
  const stop = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  seed.on('exit', (code, signal) => {
    if (code === 0) return gate.settle(null)
    gate.settle(`scripts/seed.ts ended with ${code ?? signal}`)
    if (stopping) return
    status = code ?? 1
    console.error(`npm start: the seed failed (${code ?? signal}); stopping wrangler dev`)
    stop(dev)
  })
  const ended = (code: number | null) => {
    stopping = true
    stop(seed)
    void Promise.all([gate.close(), turnstile.close()]).then(() =>
      process.exit(status ?? code ?? 1),
    )
  }
  dev.on('exit', ended)
  dev.on('error', (error) => {
    console.error(`npm start: wrangler dev could not be started: ${error.message}`)
    ended(1)
  })
  // Ctrl-C reaches every process of the terminal's group; a signal sent to npm start alone is
  // passed on, and npm start ends when wrangler dev has.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      stopping = true
      stop(seed, signal)
      stop(dev, signal)
    })
}

/**
 * Where a person signs in to the ops console locally, one link per role: each holds a token the
 * development pair signed, as Access would, which the worker then keeps as Access's cookie.
 */
async function printSignIns(keys: ReturnType<typeof developmentKeys>, port: string): Promise<void> {
  console.log('ops console (development sign-in, valid 12 hours):')
  for (const [role, email] of Object.entries(DEV_PEOPLE)) {
    const token = await developmentToken(keys, email)
    console.log(`  ${role}: http://localhost:${port}/__ops/sign-in?token=${token}`)
  }
}

/** The port wrangler dev is given (`--port N` or `--port=N`), else its default. */
function portOf(devArgs: readonly string[]): string {
  const at = devArgs.findIndex((a) => a === '--port' || a.startsWith('--port='))
  const arg = devArgs[at] ?? ''
  return at < 0 ? '8787' : arg.includes('=') ? arg.slice(7) : (devArgs[at + 1] ?? '8787')
}

if (import.meta.main) await main()
