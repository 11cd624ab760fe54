// The dependency tree, as package-lock.json pins it for `npm ci`.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'

it('holds no react-server-dom-* package (React Server Components: not used, not shipped)', async () => {
  const lock = JSON.parse(await readFile('package-lock.json', 'utf8')) as {
    packages: Record<string, unknown>
  }
  const paths = Object.keys(lock.packages)
  expect(paths.length).toBeGreaterThan(100)
  expect(paths.filter((p) => /(^|\/)react-server-dom-[^/]+$/.test(p))).toEqual([])
})

it('lists as runtime dependencies exactly the packages the worker imports for more than types', async () => {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
    dependencies: Record<string, string>
  }
  const sources = await Promise.all(
    (await readdir('src', { recursive: true }))
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => readFile(join('src', f), 'utf8')),
  )
  const imported = new Set<string>()
  for (const source of sources)
    for (const m of source.matchAll(/^import (?!type )[^;]*?from '((?:@[^/']+\/)?[^/'.][^/']*)/gm))
      if (m[1]) imported.add(m[1])
  // react-dom's server renderer is imported; react itself through JSX.
  imported.add('react')
  // The browser bundle's stand-ins (scripts/build-assets.ts aliases packages to them).
  const build = await readFile('scripts/build-assets.ts', 'utf8')
  for (const m of /alias: \{([^}]*)\}/.exec(build)?.[1]?.matchAll(/: '([^'/]+)/g) ?? [])
    if (m[1]) imported.add(m[1])
  expect(Object.keys(pkg.dependencies).sort()).toEqual([...imported].sort())
})

it('says in docs/dependencies.md why each package is there', async () => {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
    dependencies: Record<string, string>
    devDependencies: Record<string, string>
  }
  const doc = await readFile('docs/dependencies.md', 'utf8')
  const missing = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter(
    (name) => !doc.includes(`\`${name}\``),
  )
  expect(missing).toEqual([])
})
