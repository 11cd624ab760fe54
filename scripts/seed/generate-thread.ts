// Runs the seed's generator in a worker thread (generate-worker.ts), so that generating the
// catalog and validating it for the import use two cores while the import worker applies it.
import { on } from 'node:events'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { NumberedLine } from '../import/ndjson'

/** Lines the generator may run ahead of the import (a few of the largest cities). */
export const AHEAD_LINES = 20_000

/** Lines taken between two turns of the event loop. */
const YIELD_LINES = 100

export interface GeneratorData {
  cities: number
  scale: number
  seed: number
  /** The catalog's moment, ISO 8601. */
  now: string
  /** Where the lines are written as they are generated. */
  file: string
  /** One Int32: the lines the main thread has taken. */
  taken: SharedArrayBuffer
}

/** What the worker posts for each city, then null at the end. */
export interface CityChunk {
  /** The city's lines, each ended by a newline. */
  text: string
  lines: number
  /** The city's providers, au pairs and errand runners aside (`placeProviders`)... */
  providers: number
  /** ...and the whole catalog's, known from the start. */
  catalogProviders: number
}

export interface ThreadCatalog {
  lines: AsyncGenerator<NumberedLine>
  /**
   * The lines of the whole catalog, estimated from the cities generated so far: their lines for
   * each of their providers, times the catalog's providers. The seed cities come first, and
   * cities shrink down the list, so a count of cities alone would say several times too many.
   */
  total: (read: number) => number
}

/** The catalog generated in a worker thread, its lines numbered as they come. */
export function generateInThread(options: Omit<GeneratorData, 'taken'>): ThreadCatalog {
  // The lines and providers of the cities received so far, and the catalog's providers.
  let linesIn = 0
  let providersIn = 0
  let catalogProviders = 0
  let line = 0
  return {
    total: (read) => Math.round(providersIn ? (linesIn * catalogProviders) / providersIn : read),
    lines: (async function* () {
      const taken = new Int32Array(new SharedArrayBuffer(4))
      const worker = new Worker(join(import.meta.dirname, 'generate-worker.ts'), {
        workerData: { ...options, taken: taken.buffer } satisfies GeneratorData,
        // The worker's TypeScript is loaded as the seed's own is.
        execArgv: ['--import', 'tsx'],
      })
      try {
        // `on` rejects on the worker's 'error' event: a failure in the generator ends the seed.
        for await (const [chunk] of on(worker, 'message')) {
          if (chunk === null) break
          const city = chunk as CityChunk
          catalogProviders = city.catalogProviders
          linesIn += city.lines
          providersIn += city.providers
          const texts = city.text.split('\n')
          texts.pop()
          for (const text of texts) {
            yield { line: ++line, text }
            // A city's lines would otherwise all be taken without the event loop turning once:
            // the batch the import has just sent would not leave until they were, and the import
            // worker would wait for it (a large city is a dozen batches).
            if (line % YIELD_LINES === 0) await new Promise((resolve) => setImmediate(resolve))
          }
          Atomics.add(taken, 0, city.lines)
          Atomics.notify(taken, 0)
        }
      } finally {
        await worker.terminate()
      }
    })(),
  }
}
