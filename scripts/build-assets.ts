// Builds the static assets served by Workers Static Assets (wrangler.toml [assets]):
// content-hashed file names under dist/client/assets, cached as immutable by _headers, and
// dist/asset-manifest.json, which the worker imports to link them.
//
// The browser script (src/client/entry.tsx) is written against React's API and bundled with
// Preact's compat layer in its place: React 19's client runtime alone is 68 KB gzip, over the
// 60 KiB budget of a listing page before any code of ours; Preact's is about 5 KB. The server
// renders with React 19 itself, and the islands hydrate what it rendered.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { build, transform } from 'esbuild'

async function clientScript(): Promise<string> {
  const result = await build({
    entryPoints: ['src/client/entry.tsx'],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'safari14'],
    jsx: 'automatic',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
  })
  return result.outputFiles[0]?.text ?? ''
}

const SOURCES: { name: string; body: () => Promise<string> }[] = [
  {
    name: 'styles.css',
    body: async () =>
      (
        await transform(await readFile('src/views/styles.css', 'utf8'), {
          loader: 'css',
          minify: true,
        })
      ).code,
  },
  { name: 'favicon.svg', body: () => readFile('src/views/favicon.svg', 'utf8') },
  { name: 'client.js', body: clientScript },
]

await rm('dist/client', { recursive: true, force: true })
await mkdir('dist/client/assets', { recursive: true })

const manifest: Record<string, string> = {}
for (const { name, body: make } of SOURCES) {
  const body = await make()
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10)
  const dot = name.lastIndexOf('.')
  const file = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`
  await writeFile(`dist/client/assets/${file}`, body)
  manifest[name] = `/assets/${file}`
}

// Assets never reach the worker: the security headers it sets on responses are stated here.
await writeFile(
  'dist/client/_headers',
  [
    '/assets/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    '  X-Content-Type-Options: nosniff',
    '  Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    "  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
    '',
  ].join('\n'),
)
await writeFile('dist/asset-manifest.json', JSON.stringify(manifest, null, 2) + '\n')
console.log(`assets: ${Object.values(manifest).join(', ')}`)
