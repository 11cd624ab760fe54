// The dependency tree, as package-lock.json pins it for `npm ci`.
import { readFile } from 'node:fs/promises'
import { expect, it } from 'vitest'

it('holds no react-server-dom-* package (React Server Components: not used, not shipped)', async () => {
  const lock = JSON.parse(await readFile('package-lock.json', 'utf8')) as {
    packages: Record<string, unknown>
  }
  const paths = Object.keys(lock.packages)
  expect(paths.length).toBeGreaterThan(100)
  expect(paths.filter((p) => /(^|\/)react-server-dom-[^/]+$/.test(p))).toEqual([])
})
