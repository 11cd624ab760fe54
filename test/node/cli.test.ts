// The ops scripts as a person runs them: --help, a bad argument, a server that is not there,
// and a deploy to an environment without a real route. Each failure is one clear line.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployProblem, deployTarget } from '../../scripts/wrangler-config'

interface Run {
  code: number
  stdout: string
  stderr: string
}

const ENV = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  PURGE_TOKEN: 'a-token',
}

async function run(script: string, args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'node_modules/.bin/tsx',
      [`scripts/${script}.ts`, ...args],
      { env: ENV },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** What a failing script printed: exactly one line, never a stack trace. */
function oneLine(r: Run): string {
  const lines = r.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'))
  expect(lines).toHaveLength(1)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  return lines[0] ?? ''
}

/** An address nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address ? address.port : 9
}

const SCRIPTS = ['purge', 'flags', 'crawl', 'seed', 'deploy', 'bench', 'load', 'import', 'sync']

describe.each(SCRIPTS)('npm run %s', (script) => {
  it('prints its usage for --help and exits 0', async () => {
    const r = await run(script, ['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`npm run ${script}`)
  })

  it('answers an unknown option with one line and exit 2', async () => {
    const r = await run(script, ['--no-such-option'])
    expect(r.code).toBe(2)
    expect(oneLine(r)).toContain("'--no-such-option'")
  })
})

describe('bad values', () => {
  it.each([
    ['crawl', ['--every', 'ten'], '--every takes a whole number'],
    ['crawl', ['--concurrency', '0'], '--concurrency takes a whole number'],
    ['crawl', ['--origin', 'localhost'], '--origin takes an http(s) origin'],
    ['purge', ['--tag', 'provider8'], '"provider8" is not a tag'],
    ['purge', ['--tag', 'color:blue'], 'the kind one of url, service, city'],
    ['purge', ['--log', '--limit', '0'], '--limit takes a whole number'],
    ['purge', ['--env', 'prod', '--tag', 'provider:8'], '--env takes staging or production'],
    ['flags', ['get', 'noSuchFlag'], '"noSuchFlag" is neither a flag nor a configuration key'],
    ['flags', ['toggle', 'campsFilter'], 'unknown command "toggle"'],
    [
      'flags',
      ['get', 'campsFilter', '--url', '/nannies', '--visitor', 'returning'],
      '--visitor returning needs --device',
    ],
    ['flags', ['get', 'campsFilter', '--url', '/', '--visitor', 'old'], '--visitor is new or'],
    ['flags', ['get', 'traceSampleRates', '--url', '/'], '--url explains a flag'],
    ['seed', ['--cities', 'many'], '--cities takes a whole number'],
    ['deploy', [], 'name the environment'],
    ['bench', ['--duration', '5s'], '--duration takes a whole number'],
    ['bench', ['--profile', 'babysitters'], '--profile takes a path'],
    ['bench', ['--tail'], '--tail goes with --profile'],
    ['load', ['--rate', 'fast'], '--rate takes a whole number'],
    ['load', ['--kv-delay', 'slow'], '--kv-delay takes a whole number'],
    ['import', [], 'name the catalog with --file'],
    ['import', ['--file', 'c.ndjson', '--env', 'staging', '--local'], 'either --local or --env'],
    ['import', ['--file', 'c.ndjson', '--batch', '0'], '--batch takes a whole number'],
    ['import', ['--file', 'c.ndjson', '--env', 'prod'], '--env takes staging or production'],
    ['sync', [], 'name a command, dead or replay'],
    ['sync', ['replay', '--id', 'x'], '--id takes a whole number'],
  ])('%s %j: one line naming the problem, exit 2', async (script, args, message) => {
    const r = await run(script, args)
    expect(r.code).toBe(2)
    expect(oneLine(r)).toContain(message)
  })
})

describe('a server that is not there', () => {
  it.each([
    ['purge', ['--tag', 'provider:8']],
    ['crawl', []],
  ])('%s: one line naming the address, exit 1', async (script, args) => {
    const origin = `http://127.0.0.1:${await closedPort()}`
    const r = await run(script, [...args, '--origin', origin])
    expect(r.code).toBe(1)
    expect(oneLine(r)).toBe(
      `cannot reach ${origin} (ECONNREFUSED); for the local server, run \`npm start\` first`,
    )
  })
})

describe('deploy', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'care-deploy-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('refuses an environment whose route is still the placeholder, before running wrangler', async () => {
    const r = await run('deploy', ['--env', 'production'])
    expect(r.code).toBe(1)
    expect(oneLine(r)).toBe(
      'refusing to deploy: wrangler.toml [env.production] still has the placeholder route www.care.example: fill in the real hostname (docs/operations.md)',
    )
    expect(r.stdout).not.toContain('> wrangler')
  })

  it('refuses an environment with no route at all', async () => {
    const config = join(dir, 'no-route.toml')
    const ours = await readFile('wrangler.toml', 'utf8')
    await writeFile(config, ours.replace(/^routes = .*$/gm, ''))
    const r = await run('deploy', ['--env', 'staging', '--config', config])
    expect(r.code).toBe(1)
    expect(oneLine(r)).toContain('has no route or custom domain')
  })

  it('accepts an environment once its route and origin are filled in', async () => {
    const config = join(dir, 'filled.toml')
    const ours = await readFile('wrangler.toml', 'utf8')
    await writeFile(config, ours.replaceAll('care.example', 'care-marketplace.com'))
    expect(deployProblem(deployTarget('production', config))).toBeNull()
    expect(deployProblem(deployTarget('staging', config))).toBeNull()
  })

  it.each(['staging', 'production'])(
    'builds the %s environment with wrangler deploy --dry-run',
    async (name) => {
      const out = join(dir, name)
      const { stdout } = await promisify(execFile)(
        'node_modules/.bin/wrangler',
        ['deploy', '--dry-run', '--env', name, '--outdir', out],
        { env: ENV },
      )
      expect(stdout).toContain('--dry-run: exiting now.')
      expect(stdout).toContain(`env.ENVIRONMENT ("${name}")`)
      // Source maps go up with the code.
      expect(await readFile(join(out, 'worker.js.map'), 'utf8')).toContain('src/worker.ts')
    },
  )
})
