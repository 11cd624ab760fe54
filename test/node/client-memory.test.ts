// The crawler check keeps its answers by the first 512 characters of a user agent: what it keeps
// must not hold on to the rest (a slice in V8 keeps its whole string alive). Measured in V8's heap
// after a full GC, as scripts/bench/client-memory.ts does; the workers pool exposes no heap.
import { expect, it } from 'vitest'
import { isCrawler } from '../../src/request/crawler'
import { heapAfterGc } from '../../scripts/bench/heap'

it('keeps under 5 MiB for 900 made-up user agents of 60 KB each', () => {
  const before = heapAfterGc()
  for (let i = 0; i < 900; i++) isCrawler(`Mozilla/5.0 ${i}-`.padEnd(60 * 1024, 'x'))
  // The 900 agents themselves are 53 MiB.
  expect(heapAfterGc() - before).toBeLessThan(5 * 1024 * 1024)
})
