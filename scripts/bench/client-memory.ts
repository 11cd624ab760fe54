// What an isolate's memories keyed by client strings grow by under a client that makes them up
// (docs/hardening.md, "What an isolate keeps of client input"), in V8's heap after a full GC:
//
//   npx tsx scripts/bench/client-memory.ts
//
// 900 distinct user agents of 60 KB each through the crawler check, and 10,000 distinct city
// slugs of 2,000 characters (about what a path under the normaliser's 2,048-byte cap can hold)
// through the gate's filter. Each string is made afresh, as a request's header is.
import { GateFilter } from '../../src/gate/gate-filter'
import { isCrawler } from '../../src/request/crawler'
import { heapAfterGc } from './heap'

/** A string of `length` characters unique to `i`, built at run time. */
const made = (i: number, length: number) => `${i}-`.padEnd(length, 'abcdefghij'[i % 10])
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

let before = heapAfterGc()
for (let i = 0; i < 900; i++) isCrawler(`Mozilla/5.0 ${made(i, 60 * 1024)}`)
console.log(`900 user agents of 60 KB: ${mib(heapAfterGc() - before)}`)

const filter = GateFilter.create(1, {
  version: 1,
  builtAt: new Date().toISOString(),
  watermarks: { provider: 0, job: 0 },
})
before = heapAfterGc()
for (let i = 0; i < 10_000; i++) filter.has('city', made(i, 2_000))
console.log(`10,000 city slugs of 2,000 characters: ${mib(heapAfterGc() - before)}`)
