// `npm test` and `npm run test:e2e` first run scripts/check-chromium.ts: without a Chromium they
// stop with one line saying how to get one, before any build or browser test.
import { spawnSync } from 'node:child_process'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { NO_CHROMIUM } from '../../scripts/chromium'

const empty = await mkdtemp(join(tmpdir(), 'no-chromium-'))
afterAll(() => rm(empty, { recursive: true, force: true }))

/** The check as `npm test` runs it (tsx on this Node), with PATH and CHROMIUM_PATH as given. */
function check(env: { PATH: string; CHROMIUM_PATH?: string }) {
  return spawnSync(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'scripts/check-chromium.ts'],
    { env: { ...process.env, CHROMIUM_PATH: undefined, ...env }, encoding: 'utf8' },
  )
}

it('stops with one line naming apt-get and CHROMIUM_PATH when no Chromium runs', () => {
  for (const env of [
    { PATH: empty, CHROMIUM_PATH: join(empty, 'missing', 'chromium') },
    { PATH: empty },
  ]) {
    const run = check(env)
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`${NO_CHROMIUM}\n`)
    expect(run.stdout).toBe('')
  }
  expect(NO_CHROMIUM).toContain('apt-get install -y chromium')
  expect(NO_CHROMIUM).toContain('CHROMIUM_PATH')
})

it('passes with a chromium on PATH or an executable CHROMIUM_PATH', async () => {
  const bin = await mkdtemp(join(tmpdir(), 'chromium-'))
  const fake = join(bin, 'chromium')
  await writeFile(fake, '#!/bin/sh\n')
  await chmod(fake, 0o755)
  try {
    expect(check({ PATH: `${empty}:${bin}` }).status).toBe(0)
    expect(check({ PATH: empty, CHROMIUM_PATH: fake }).status).toBe(0)
  } finally {
    await rm(bin, { recursive: true, force: true })
  }
})
