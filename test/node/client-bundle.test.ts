// The browser scripts as `npm run build` ships them (scripts/build-assets.ts).
import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import manifest from '../../dist/asset-manifest.json'
import reactDom from '../../node_modules/react-dom/package.json'

/** The JavaScript budget of a listing page (docs/browser.md, "Budget"): the two scripts it loads. */
const BUDGET = 80 * 1024

const read = (name: 'client.js' | 'react.js') => readFile(`dist/client${manifest[name]}`, 'utf8')

it('keeps the JavaScript of a listing page within 80 KiB gzip', async () => {
  let total = 0
  for (const name of ['client.js', 'react.js'] as const) {
    const script = await read(name)
    const gzip = gzipSync(script, { level: 9 }).byteLength
    console.log(`${name}: ${Buffer.byteLength(script)} bytes, ${gzip} gzip`)
    total += gzip
  }
  expect(total).toBeLessThanOrEqual(BUDGET)
})

it("ships React's own production client, imported by the browser script on the first interaction, and no Preact", async () => {
  const [client, react] = await Promise.all([read('client.js'), read('react.js')])
  expect(react).toContain(`"${reactDom.version}"`)
  expect(react).toContain('hydrateRoot')
  // The development build names itself in its warnings and keeps React's source comments.
  expect(react).not.toMatch(/development|Warning: /)
  // Imported dynamically, and only that way: nothing of React is evaluated with client.js.
  expect(client).toContain(`import("./${manifest['react.js'].split('/').pop() ?? ''}")`)
  expect(client).not.toMatch(/\bfrom\s*"|hydrateRoot/)
  // V8 compiles the whole of it off the main thread while it downloads.
  expect(react.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true)
  expect(client + react).not.toMatch(/preact/i)
})
