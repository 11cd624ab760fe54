// The bundle `wrangler deploy` ships, built as a dry run.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'

let dir = ''
let bundle = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-bundle-'))
  await promisify(execFile)(
    'node_modules/.bin/wrangler',
    ['deploy', '--dry-run', '--outdir', dir],
    {
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
    },
  )
  bundle = await readFile(join(dir, 'worker.js'), 'utf8')
})

afterAll(() => rm(dir, { recursive: true, force: true }))

it("bundles React's production server renderer, not the ten-times-slower development one", () => {
  expect(bundle).toContain('react-dom-server.node.production')
  expect(bundle).not.toContain('react-dom-server.node.development')
})

it("bundles one server renderer: React's Node build, not the edge build beside it", () => {
  expect(bundle).not.toContain('react-dom-server.edge')
})

it('stays under 1 MiB gzip', () => {
  expect(gzipSync(bundle).byteLength).toBeLessThan(1024 * 1024)
})
