// Every process the tests run in is on Node 24: the one package.json's optionalDependencies put
// in node_modules/.bin for this platform, which npm scripts put first on PATH.
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { expect, inject, it } from 'vitest'

it('runs vitest, its test workers and the tools tests start on the installed Node 24', async () => {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
    optionalDependencies: Record<string, string>
  }
  const installed = pkg.optionalDependencies[`node-${process.platform}-${process.arch}`]
  const versions = {
    vitest: inject('vitestNode'),
    testWorker: process.version,
    // wrangler, tsx and the other tools the tests spawn run on the `node` found on PATH.
    onPath: execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).trim(),
  }
  console.log(`test processes on Node: ${JSON.stringify(versions)}`)
  const expected = installed ? `v${installed}` : versions.vitest
  expect(expected).toMatch(/^v24\./)
  expect(versions).toEqual({ vitest: expected, testWorker: expected, onPath: expected })
})
