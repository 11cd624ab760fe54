// The e2e project's world (vitest globalSetup): a Sentry capture server, a local D1 seeded by
// scripts/seed.ts into a folder of its own, and the real `wrangler dev` serving the worker as
// `npm start` does, with the browser script's DSN pointing at the capture server.
import type { ChildProcess } from 'node:child_process'
import { execFile, spawn } from 'node:child_process'
import { startTurnstileStandIn, TURNSTILE_TEST } from '../../scripts/turnstile-stand-in'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { newDevelopmentKeys } from '../../scripts/access-dev'
import { startCaptureServer } from '../node/capture-server'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
export const E2E_PURGE_TOKEN = 'e2e-purge-token'
/** The catalog endpoint's token here: the console's tests send changes through it. */
export const E2E_SYNC_TOKEN = 'e2e-sync-token'
/**
 * The device (care_did) the journeys' flags are on for, by override, and for no one else: the
 * other tests, and crawlers, see the documented defaults.
 */
export const E2E_FLAGGED_DEVICE = 'e2e0f1a9-0000-4000-8000-00000000f1a9'
const FLAGGED = ['embeddedGuestMessaging', 'adultCareEnrollmentRollout', 'providerSignUpBanner']
const FLAG_STORE = {
  flags: Object.fromEntries(
    FLAGGED.map((name) => [
      name,
      { state: 'ENABLED', rules: [], overrides: { [E2E_FLAGGED_DEVICE]: true } },
    ]),
  ),
}

export default async function setup(project: TestProject) {
  const capture = await startCaptureServer()
  const dir = await mkdtemp(join(tmpdir(), 'care-e2e-'))
  await promisify(execFile)(
    'node_modules/.bin/tsx',
    // The default catalog, as `npm start` serves it: the crawl samples it (test/e2e/crawl.test.ts).
    ['scripts/seed.ts', '--persist-to', dir],
    { env: ENV },
  )
  await promisify(execFile)(
    'node_modules/.bin/wrangler',
    [
      'kv',
      'key',
      'put',
      'flags',
      JSON.stringify(FLAG_STORE),
      '--binding',
      'FLAGS',
      '--local',
    ].concat(['--persist-to', dir]),
    { env: ENV },
  )
  const turnstile = await startTurnstileStandIn()
  const port = await freePort()
  const access = newDevelopmentKeys()
  const base = `http://127.0.0.1:${port}`
  const browserDsn = `${capture.origin.replace('http://', 'http://public@')}/1`
  const dev: ChildProcess = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      ...['--port', String(port), '--ip', '127.0.0.1', '--persist-to', dir],
      ...['--inspector-port', '0', '--var', `PURGE_TOKEN:${E2E_PURGE_TOKEN}`],
      ...['--var', `SYNC_TOKEN:${E2E_SYNC_TOKEN}`],
      ...['--var', `SENTRY_BROWSER_DSN:${browserDsn}`, '--var', 'ENVIRONMENT:e2e'],
      ...['--var', `TURNSTILE_VERIFY_URL:${turnstile.verifyUrl}`],
      ...['--var', `TURNSTILE_SECRET_KEY:${TURNSTILE_TEST.secretPasses}`],
      // A development key pair stands in for Cloudflare Access in front of the ops console.
      ...['--var', `ACCESS_JWKS:${access.jwks}`],
    ],
    { env: ENV, detached: true, stdio: 'ignore' },
  )
  const stop = async () => {
    if (dev.pid) process.kill(-dev.pid, 'SIGTERM')
    capture.close()
    await turnstile.close()
    await rm(dir, { recursive: true, force: true })
  }
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/babysitters`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) break
      if (i > 120) throw new Error('wrangler dev did not start within 60 s')
      await new Promise((r) => setTimeout(r, 500))
    }
  } catch (error) {
    await stop()
    throw error
  }
  project.provide('baseUrl', base)
  project.provide('persistDir', dir)
  project.provide('accessPrivateJwk', access.privateJwk)
  project.provide('sentryOrigin', capture.origin)
  return stop
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}
