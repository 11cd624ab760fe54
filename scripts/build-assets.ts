// Builds the static assets served by Workers Static Assets (wrangler.toml [assets]):
// content-hashed file names under dist/client/assets, cached as immutable by _headers, and
// dist/asset-manifest.json, which the worker imports to link them.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { transform } from 'esbuild'

const SOURCES: { name: string; path: string; minify?: 'css' }[] = [
  { name: 'styles.css', path: 'src/views/styles.css', minify: 'css' },
  { name: 'favicon.svg', path: 'src/views/favicon.svg' },
]

await rm('dist/client', { recursive: true, force: true })
await mkdir('dist/client/assets', { recursive: true })

const manifest: Record<string, string> = {}
for (const { name, path, minify } of SOURCES) {
  let body = await readFile(path, 'utf8')
  if (minify) body = (await transform(body, { loader: minify, minify: true })).code
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10)
  const dot = name.lastIndexOf('.')
  const file = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`
  await writeFile(`dist/client/assets/${file}`, body)
  manifest[name] = `/assets/${file}`
}

await writeFile(
  'dist/client/_headers',
  '/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n  X-Content-Type-Options: nosniff\n',
)
await writeFile('dist/asset-manifest.json', JSON.stringify(manifest, null, 2) + '\n')
console.log(`assets: ${Object.values(manifest).join(', ')}`)
