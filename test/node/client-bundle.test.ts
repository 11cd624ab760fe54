// The browser script as `npm run build` ships it (scripts/build-assets.ts).
import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import manifest from '../../dist/asset-manifest.json'

/** The JavaScript budget of a listing page (docs/browser.md, "Budget"): the one script it loads. */
const BUDGET = 60 * 1024

it('keeps the JavaScript of a listing page within 60 KiB gzip', async () => {
  const script = await readFile(`dist/client${manifest['client.js']}`)
  const gzip = gzipSync(script, { level: 9 }).byteLength
  console.log(`client.js: ${script.byteLength} bytes, ${gzip} gzip`)
  expect(gzip).toBeLessThanOrEqual(BUDGET)
})
