// V8's heap in use after a full collection: what a structure really keeps, for the memory
// measurements (scripts/bench/client-memory.ts, scripts/bench/purge-store.ts and their tests).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

export function heapAfterGc(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
