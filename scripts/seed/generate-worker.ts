// The seed's generator in a worker thread (generate-thread.ts starts it): it generates the
// catalog city by city, writes each city's lines to the catalog file and posts them to the
// main thread, which validates and imports them. Never more than `AHEAD_LINES` ahead of what
// the main thread has taken, so the million-provider catalog is never held in memory.
import { closeSync, openSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { catalogLines } from './catalog-lines'
import type { GeneratorData } from './generate-thread'
import { AHEAD_LINES } from './generate-thread'
import { catalogPlaces } from './places'

const data = workerData as GeneratorData
const port = parentPort
if (!port) throw new Error('generate-worker.ts runs in a worker thread')
const taken = new Int32Array(data.taken)
const places = catalogPlaces(data.cities)
const out = openSync(data.file, 'w')
let posted = 0
for (const lines of catalogLines(places, {
  scale: data.scale,
  seed: data.seed,
  now: new Date(data.now),
})) {
  // Blocks this thread (never the main one) until the main thread has caught up.
  for (
    let seen = Atomics.load(taken, 0);
    posted - seen > AHEAD_LINES;
    seen = Atomics.load(taken, 0)
  )
    Atomics.wait(taken, 0, seen)
  const text = lines.join('\n') + '\n'
  writeSync(out, text)
  port.postMessage({ text, lines: lines.length, places: places.length })
  posted += lines.length
}
closeSync(out)
port.postMessage(null)
