// Builds the static assets served by Workers Static Assets (wrangler.toml [assets]):
// content-hashed file names under dist/client/assets, cached as immutable by _headers, and
// dist/asset-manifest.json, which the worker imports to link them.
//
// The browser script is two files: `client.js` (src/client/entry.ts), which the page loads and
// which does only what the page's look depends on, and `react.js`, which it imports on the
// visitor's first interaction: React 19's runtime (react, react-dom/client, the JSX runtime) and
// everything that runs on it (src/client/islands.tsx). The ops console has its own, `ops.js`
// (src/client/ops.tsx).
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import type { BuildOptions, BuildResult, PluginBuild } from 'esbuild'
import { build, transform } from 'esbuild'
import { SERVICES } from '../src/catalog/services'
import { DEFAULT_QUERY, listingFilterFields } from '../src/queries/listing-query'
import { EMBEDDED_STATE_BUDGET } from '../src/views/listing/island-props'
import { fail } from './cli'
import { portrait } from './portraits'
import { seedFinished } from './seed-gate'
import { PORTRAIT_COUNT, portraitPath } from './seed/photos'

/** What the build writes: source name and file body. */
interface Asset {
  name: string
  body: string
}

/**
 * The browser script and the file it imports on the first interaction, built apart: one
 * build of `islands.tsx` with React (`react.js`), then one of `entry.ts` (`client.js`), whose
 * `import('./islands')` is pointed at react.js's hashed name. (esbuild's code splitting would
 * add a third file: the helpers both share.)
 */
async function clientScripts(): Promise<Asset[]> {
  const options = {
    bundle: true,
    minify: true,
    format: 'esm',
    // Safari 14.1, not 14: older Safari miscompiles some destructuring, which esbuild cannot lower.
    target: ['es2020', 'safari14.1'],
    jsx: 'automatic',
    // React's production build: its development build is larger and warns in the console.
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
  } satisfies BuildOptions
  const only = (result: BuildResult<{ write: false }>) => {
    const [file, ...more] = result.outputFiles
    if (!file || more.length) throw new Error(`expected one file, got ${result.outputFiles.length}`)
    return file.text
  }
  // Almost every function of this file runs while the islands hydrate: compiled on demand, each
  // would be parsed again on the main thread. This comment at the top of the file has Chromium
  // compile them all at once, off the main thread, while the file downloads (V8's explicit
  // compile hints).
  const react = `//# allFunctionsCalledOnLoad\n${only(
    await build({ ...options, entryPoints: ['src/client/islands.tsx'] }),
  )}`
  const reactFile = hashedName('react.js', react)
  const client = only(
    await build({
      ...options,
      entryPoints: ['src/client/entry.ts'],
      plugins: [
        {
          name: 'islands',
          setup(b: PluginBuild) {
            b.onResolve({ filter: /^\.\/islands$/ }, () => ({
              path: `./${reactFile}`,
              external: true,
            }))
          },
        },
      ],
    }),
  )
  if (!client.includes(`import("./${reactFile}")`))
    throw new Error('client.js does not import react.js')
  // client.js first: its hash covers react.js too (it names react.js's hash), and the build id
  // is the first 30 hex digits of the hashes in this order (src/views/assets.ts).
  // The ops console's islands, with React (its pages are not the site's, and load nothing else).
  const ops = only(await build({ ...options, entryPoints: ['src/client/ops.tsx'] }))
  return [
    { name: 'client.js', body: client },
    { name: 'react.js', body: react },
    { name: 'ops.js', body: ops },
  ]
}

/** `react.js` → `react.0123456789.js`: the first 10 hex digits of the body's SHA-256. */
function hashedName(name: string, body: string): string {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10)
  const dot = name.lastIndexOf('.')
  return `${name.slice(0, dot)}.${hash}${name.slice(dot)}`
}

const assets: Asset[] = [
  {
    name: 'styles.css',
    body: (
      await transform(await readFile('src/views/styles.css', 'utf8'), {
        loader: 'css',
        minify: true,
      })
    ).code,
  },
  { name: 'favicon.svg', body: await readFile('src/views/favicon.svg', 'utf8') },
  ...(await clientScripts()),
]

// Written in place, never emptied first: a running `wrangler dev` (and anything it serves) may
// be reading these files while another build runs (wrangler's [build] runs on every dev and
// deploy), and an unchanged build changes no file at all. Stale hashed files go last.
await mkdir('dist/client/assets', { recursive: true })

const manifest: Record<string, string> = {}
for (const { name, body } of assets) {
  const file = hashedName(name, body)
  await writeIfChanged(`dist/client/assets/${file}`, body)
  manifest[name] = `/assets/${file}`
}

// The seed's provider photos, at the fixed paths its catalog stores (scripts/seed/photos.ts).
await mkdir('dist/client/photos', { recursive: true })
for (let n = 0; n < PORTRAIT_COUNT; n++)
  await writeIfChanged(`dist/client${portraitPath(n)}`, portrait(n))

// Assets never reach the worker: the security headers it sets on responses are stated here.
await writeIfChanged(
  'dist/client/_headers',
  [
    '/assets/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    '  X-Content-Type-Options: nosniff',
    '  Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    "  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
    '/photos/*',
    '  Cache-Control: public, max-age=86400',
    '  X-Content-Type-Options: nosniff',
    "  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
    '',
  ].join('\n'),
)
await writeIfChanged('dist/asset-manifest.json', JSON.stringify(manifest, null, 2) + '\n')
const current = new Set(Object.values(manifest).map((path) => path.replace('/assets/', '')))
for (const file of await readdir('dist/client/assets'))
  if (!current.has(file)) await rm(`dist/client/assets/${file}`, { force: true })
console.log(`assets: ${Object.values(manifest).join(', ')}`)

// The JavaScript each page type loads (docs/browser.md, "Budget"): pages with islands or the
// search form (listings, hubs, the home page) load both scripts; profiles, jobs, cost guides and
// the flow none.
const gzip = (name: string) =>
  gzipSync(assets.find((a) => a.name === name)?.body ?? '', { level: 9 }).byteLength
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
console.log(
  `JavaScript, gzip: listings, hubs and home ${kib(gzip('client.js') + gzip('react.js'))} ` +
    `(client.js ${kib(gzip('client.js'))}, react.js ${kib(gzip('react.js'))}), other pages 0; ` +
    `the ops console ${kib(gzip('ops.js'))}`,
)

// What a listing page embeds for its islands besides their markup (docs/browser.md, "Budget"):
// the filter fields weigh the most, and the cards are never among it.
const filterJson = SERVICES.map((service) => ({
  service: service.slug,
  bytes: Buffer.byteLength(JSON.stringify(listingFilterFields(service, DEFAULT_QUERY))),
})).reduce((a, b) => (b.bytes > a.bytes ? b : a))
console.log(
  `Listing state JSON: budget ${kib(EMBEDDED_STATE_BUDGET)} a page, no cards; the largest ` +
    `filter set ${kib(filterJson.bytes)} (${filterJson.service})`,
)

// Under `npm start` the seed runs while wrangler dev starts, and wrangler dev starts the worker
// only once this build has ended: so the build, done, waits for the seed (scripts/seed-gate.ts).
await seedFinished().catch((error: unknown) =>
  fail(error instanceof Error ? error.message : String(error)),
)

/** Writes `body` to `path` unless it already holds exactly that. */
async function writeIfChanged(path: string, body: string | Buffer): Promise<void> {
  const old = await readFile(path).catch(() => null)
  if (!old?.equals(Buffer.from(body))) await writeFile(path, body)
}
