// Measures the gate built by `npm run seed` (local KV): its false-positive rate on 1,000,000
// random city slugs that are not in the catalog, its lookup cost and its load time.
//   npm run gate:measure [-- --samples 1000000]
import { parseArgs } from 'node:util'
import { getPlatformProxy } from 'wrangler'
import { STATES } from '../src/catalog/states'
import { GateFilter } from '../src/gate/gate-filter'
import type { GateMeta } from '../src/gate/gate-filter'
import { GATE_KEY } from '../src/gate/gate-store'

const { values } = parseArgs({ options: { samples: { type: 'string', default: '1000000' } } })
const samples = Number(values.samples)
const { env, dispose } = await getPlatformProxy<Env>()
try {
  const { value, metadata } = await env.GATE.getWithMetadata<GateMeta>(GATE_KEY, 'arrayBuffer')
  if (!value || !metadata) throw new Error('no gate in local KV: run `npm run seed` first')
  let t = performance.now()
  const gate = GateFilter.fromBytes(value, metadata)
  const loadMs = performance.now() - t

  const known = new Set(
    (await env.CONTROL.prepare('SELECT slug FROM cities').raw<[string]>()).map(([s]) => s),
  )
  const states = Object.keys(STATES).map((s) => s.toLowerCase())
  const random = mulberry32(42)
  const slugs = new Set<string>()
  while (slugs.size < samples) {
    const len = 4 + Math.floor(random() * 10)
    let word = ''
    for (let i = 0; i < len; i++) word += String.fromCharCode(97 + Math.floor(random() * 26))
    const slug = `${word}-${states[Math.floor(random() * states.length)]}`
    if (!known.has(slug)) slugs.add(slug)
  }
  t = performance.now()
  let falsePositives = 0
  for (const slug of slugs) if (gate.has('city', slug)) falsePositives++
  const lookupUs = ((performance.now() - t) * 1000) / samples

  console.log(
    `gate: ${metadata.items.toLocaleString('en-US')} slugs and ids, ${(value.byteLength / 1024).toFixed(0)} KiB, ${metadata.hashes} hashes, built ${metadata.builtAt}`,
  )
  console.log(
    `false positives: ${falsePositives} of ${samples.toLocaleString('en-US')} unknown slugs = ${((falsePositives / samples) * 100).toFixed(4)} % (target 0.01 %)`,
  )
  console.log(
    `lookup: ${lookupUs.toFixed(2)} µs per slug; load from bytes: ${loadMs.toFixed(1)} ms (Node ${process.version})`,
  )
} finally {
  await dispose()
}

/** A small seeded PRNG, so every run measures the same slugs. */
function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
