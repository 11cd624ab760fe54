// The README's line on the import layers says what the lint enforces (LAYERS in eslint.config.js).
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

/** The README's layers, top first, in the lint's spelling: `routes/` is `src/routes/**`. */
function readmeLayers(readme: string): string[][] {
  const line = /Imports point down the tree, in layers, top first:([^]*?)\. A file imports/.exec(
    readme.replace(/\s+/g, ' '),
  )?.[1]
  if (!line) throw new Error('README.md has no "Imports point down the tree" line')
  return line.split(';').map((layer) =>
    layer.split(',').map((folder) => {
      const name = folder.trim().replace(/^`|`$/g, '')
      return name.endsWith('/') ? `src/${name}**` : name
    }),
  )
}

it('names the layers the lint enforces, in its order', async () => {
  // A path the type check does not follow: eslint.config.js is JavaScript without types.
  const config = (await import(resolve('eslint.config.js'))) as { LAYERS: string[][] }
  expect(readmeLayers(await readFile('README.md', 'utf8'))).toEqual(config.LAYERS)
})
