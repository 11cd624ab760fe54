import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { expect, it } from 'vitest'
import { AUDIT_KEEP_DAYS, forgetOldAudit } from '../../src/cache/purge-audit'
import worker from '../../src/worker'
import { ORIGIN } from '../support/fetch-page'

// The purge endpoint against callers without a valid token: the PURGE_FAILURES rate limit (the
// real binding, emulated locally) and the audit log's counted refusals. Each test uses addresses
// of its own: the limiter's counts outlive a test.

const ATTEMPTS_UNTIL_LOCKED = 12

/** Purge requests through the worker, one after another; their background work done on return. */
async function attempts(tokens: readonly string[], address: (i: number) => string | undefined) {
  const ctx = createExecutionContext()
  const statuses: number[] = []
  for (const [i, token] of tokens.entries()) {
    const ip = address(i)
    const res = await worker.fetch(
      new Request(`${ORIGIN}/__ops/purge`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(ip ? { 'cf-connecting-ip': ip } : {}),
        },
        body: JSON.stringify({ tags: ['city:nowhere'] }),
      }),
      env,
      ctx,
    )
    await res.body?.cancel()
    statuses.push(res.status)
  }
  await waitOnExecutionContext(ctx)
  return statuses
}

const wrong = (n: number) => Array<string>(n).fill('wrong')

/**
 * `attempts` within one minute of the clock: the limiter counts failures per minute, starting
 * again at each new one, so a run that a new minute cut in two is made again from the addresses
 * of the next run (`address(i, run)`).
 */
async function attemptsInAMinute(
  tokens: readonly string[],
  address: (i: number, run: number) => string,
) {
  const minute = () => Math.floor(Date.now() / 60_000)
  for (let run = 0; ; run++) {
    const started = minute()
    const statuses = await attempts(tokens, (i) => address(i, run))
    if (minute() === started) return statuses
  }
}

/** Five failures a minute are answered 401, every later one 429. */
const LOCKED_AFTER_FIVE = [
  ...Array<number>(5).fill(401),
  ...Array<number>(ATTEMPTS_UNTIL_LOCKED - 5).fill(429),
]

it('checks a valid token first: never locked out, whatever its address has failed', async () => {
  for (const address of [() => '198.51.100.77', () => '2001:db8:77::1', () => undefined]) {
    const statuses = await attempts(wrong(ATTEMPTS_UNTIL_LOCKED), address)
    expect(statuses).toContain(429)
    expect(await attempts(['test-ops-token', 'test-ci-token'], address)).toEqual([200, 200])
  }
})

it('locks out a whole IPv6 /64, not one address at a time', async () => {
  // Every attempt from another address of the same /64.
  const statuses = await attemptsInAMinute(
    wrong(ATTEMPTS_UNTIL_LOCKED),
    (i, run) => `2001:db8:5:${6 + 2 * run}::${i + 1}`,
  )
  expect(statuses).toEqual(LOCKED_AFTER_FIVE)
  // Another /64 is counted apart.
  expect(await attempts(['wrong'], () => '2001:db8:5:7::1')).toEqual([401])
})

it('locks out an IPv4 address with 429 after five failures a minute', async () => {
  const statuses = await attemptsInAMinute(
    wrong(ATTEMPTS_UNTIL_LOCKED),
    (_, run) => `192.0.2.${100 + run}`,
  )
  expect(statuses).toEqual(LOCKED_AFTER_FIVE)
  expect(await attempts(['wrong'], () => '192.0.2.67')).toEqual([401])
})

it('counts refusals in the audit log: one row per outcome and minute, not one per attempt', async () => {
  const rows = () =>
    env.CONTROL.prepare(
      "SELECT outcome, refusals FROM purge_log WHERE token_name = 'unknown' AND refused_minute IS NOT NULL",
    ).all<{ outcome: string; refusals: number }>()
  const before = (await rows()).results
  const total = (list: { refusals: number }[]) => list.reduce((n, r) => n + r.refusals, 0)
  await attempts(wrong(40), (i) => `203.0.113.${i}`)
  await attempts(wrong(20), () => '203.0.113.200')
  const after = (await rows()).results
  expect(total(after) - total(before)).toBe(60)
  // Two outcomes, in at most two minutes if the run crossed one.
  expect(after.length - before.length).toBeLessThanOrEqual(4)
  expect(after.map((r) => r.outcome)).toEqual(
    expect.arrayContaining(['refused: unauthorized (401)', 'refused: locked out (429)']),
  )
})

it('keeps the audit log for a bounded time: the cron deletes older rows', async () => {
  const old = new Date(Date.now() - (AUDIT_KEEP_DAYS + 1) * 86_400_000).toISOString()
  await env.CONTROL.prepare(
    "INSERT INTO purge_log (at, token_name, urls, tags, purged, outcome) VALUES (?, 'ops', '[]', '[\"city:old\"]', 1, 'purged')",
  )
    .bind(old)
    .run()
  expect(await forgetOldAudit(env.CONTROL, Date.now())).toBeGreaterThanOrEqual(1)
  const left = await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM purge_log WHERE at < ?')
    .bind(old.slice(0, 10) + 'T23:59:59.999Z')
    .first<{ n: number }>()
  expect(left?.n).toBe(0)
})
