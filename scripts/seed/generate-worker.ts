// The seed's generator in a worker thread (generate-thread.ts starts it): it generates the
// catalog city by city, writes each city's lines to the catalog file and posts them to the
// main thread, which validates and imports them. Never more than `AHEAD_LINES` ahead of what
// the main thread has taken, so the million-provider catalog is never held in memory.
import { closeSync, openSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { catalogLines } from './catalog-lines'
import type { CityChunk, GeneratorData } from './generate-thread'
import { AHEAD_LINES } from './generate-thread'
import { placeProviders } from './generate-catalog'
import { catalogPlaces } from './places'

/** A wait is cut short now and then, so that a worker ended meanwhile (`terminate`) stops. */
const WAIT_MS = 100

const data = workerData as GeneratorData
const port = parentPort
if (!port) throw new Error('generate-worker.ts runs in a worker thread')
const taken = new Int32Array(data.taken)
const places = catalogPlaces(data.cities)
const providers = placeProviders(places, data.scale)
const catalogProviders = providers.reduce((sum, n) => sum + n, 0)
const out = openSync(data.file, 'w')
let posted = 0
let city = 0
for (const lines of catalogLines(places, {
  scale: data.scale,
  seed: data.seed,
  now: new Date(data.now),
})) {
  // Blocks this thread (never the main one) until the main thread has caught up.
  while (posted - Atomics.load(taken, 0) > AHEAD_LINES)
    Atomics.wait(taken, 0, Atomics.load(taken, 0), WAIT_MS)
  const text = lines.join('\n') + '\n'
  writeSync(out, text)
  port.postMessage({
    text,
    lines: lines.length,
    providers: providers[city++] ?? 0,
    catalogProviders,
  } satisfies CityChunk)
  posted += lines.length
}
closeSync(out)
port.postMessage(null)
