import { expect, it } from 'vitest'
import { Kept, LATE } from '../../src/lib/kept'

// What a kept value's callers get when its store answers late, or never.

const never = () => new Promise<string>(() => undefined)
const after = (ms: number, value: string) =>
  new Promise<string>((resolve) => setTimeout(() => resolve(value), ms))

it('answers LATE past the deadline, keeps the read when it ends, and does not wait twice', async () => {
  const kept = new Kept<string>({ maxAgeMs: 60_000 })
  const background: Promise<unknown>[] = []
  const deadline = { ms: 20, waitUntil: (p: Promise<unknown>) => background.push(p) }
  let lates = 0
  const load = { read: () => after(200, 'read') }
  expect(await kept.getWithin(load, { ...deadline, onLate: () => lates++ })).toBe(LATE)
  // The same load, already past a deadline: answered at once.
  const started = Date.now()
  expect(await kept.serveWithin(load, { ...deadline, onLate: () => lates++ })).toBe(LATE)
  expect(Date.now() - started).toBeLessThan(20)
  expect(lates).toBe(1)
  await Promise.all(background)
  expect(kept.value).toBe('read')
  expect(await kept.getWithin(load, deadline)).toBe('read')
})

it('gives up on a read that never ends, and keeps what recover gives', async () => {
  const kept = new Kept<string>({ maxAgeMs: 60_000, retryAfterMs: 10 })
  const load = { read: never, giveUpMs: 30, recover: () => 'stand-in' }
  expect(await kept.get(load)).toBe('stand-in')
  // After the retry delay, a new read starts: the first one no longer stands in the way.
  await after(20, '')
  expect(await kept.get({ read: () => Promise.resolve('read') })).toBe('read')
})
