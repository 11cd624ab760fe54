import { expect, it, vi } from 'vitest'
import { Kept, LATE } from '../../src/lib/kept'

// What a kept value's callers get when its store answers late, or never.

const never = () => new Promise<string>(() => undefined)

/** A read the test ends when it chooses. */
function aHeldRead() {
  let finish: (value: string) => void = () => undefined
  const read = new Promise<string>((resolve) => (finish = resolve))
  return { read: () => read, finish }
}

it('answers LATE past the deadline, keeps the read when it ends, and does not wait twice', async () => {
  const kept = new Kept<string>({ maxAgeMs: 60_000 })
  const background: Promise<unknown>[] = []
  const waitUntil = (p: Promise<unknown>) => background.push(p)
  let lates = 0
  const held = aHeldRead()
  const load = { read: held.read }
  // The read is held: it is past the 20 ms deadline whatever the machine's load.
  expect(await kept.getWithin(load, { ms: 20, waitUntil, onLate: () => lates++ })).toBe(LATE)
  // The same load, already past a deadline: answered at once. With an hour's deadline, any wait
  // would outlast the test.
  const hour = { ms: 3_600_000, waitUntil, onLate: () => lates++ }
  expect(await kept.serveWithin(load, hour)).toBe(LATE)
  expect(lates).toBe(1)
  held.finish('read')
  await Promise.all(background)
  expect(kept.value).toBe('read')
  expect(await kept.getWithin(load, { ms: 20, waitUntil })).toBe('read')
})

it('gives up on a read that never ends, and keeps what recover gives', async () => {
  const kept = new Kept<string>({ maxAgeMs: 60_000, retryAfterMs: 10 })
  const load = { read: never, giveUpMs: 30, recover: () => 'stand-in' }
  expect(await kept.get(load)).toBe('stand-in')
  // After the retry delay, a new read starts: the first one no longer stands in the way.
  vi.useFakeTimers({ toFake: ['Date'] })
  try {
    vi.setSystemTime(Date.now() + 10)
    expect(await kept.get({ read: () => Promise.resolve('read') })).toBe('read')
  } finally {
    vi.useRealTimers()
  }
})
