import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { Event as SentryEvent } from '@sentry/types'
import { afterEach, expect, inject, it, vi } from 'vitest'
import { GATE_KEY } from '../../src/gate/gate-store'
import worker from '../../src/worker'
import { everyBinding } from '../support/databases'
import { withFaults } from '../support/with-faults'

// The cron's two steps run whatever became of the other; each failure is reported, and each
// outcome recorded in cron_steps.

afterEach(() => {
  vi.restoreAllMocks()
})

interface StepRow {
  step: string
  last_success: string | null
  last_failure: string | null
  last_error: string | null
}

/** The cron trigger, run at `at` over the real bindings, some replaced by `bindings`. */
async function runCron(at: Date, bindings: Partial<Env>): Promise<void> {
  const ctx = createExecutionContext()
  worker.scheduled(
    createScheduledController({ scheduledTime: at.getTime(), cron: '* * * * *' }),
    { ...env, ...bindings },
    ctx,
  )
  await waitOnExecutionContext(ctx)
}

async function steps(): Promise<Record<string, StepRow>> {
  const { results } = await env.CONTROL.prepare('SELECT * FROM cron_steps').all<StepRow>()
  return Object.fromEntries(results.map((row) => [row.step, row]))
}

/** The cron tags of the error events the capture server received, oldest first. */
async function reportedSteps(): Promise<string[]> {
  const res = await fetch(`${inject('sentryOrigin')}/envelopes`)
  const envelopes = await res.json<{ project: string; body: string }[]>()
  return envelopes
    .filter((e) => e.project === '1')
    .map((e) => JSON.parse(e.body.split('\n')[2] ?? '{}') as SentryEvent)
    .filter((e) => e.exception)
    .map((e) => e.tags?.cron)
    .filter((step) => typeof step === 'string')
}

it('records the last success of each step', async () => {
  const at = new Date()
  await runCron(at, {})
  const rows = await steps()
  expect(rows.stats?.last_success).toBe(at.toISOString())
  expect(rows.gate?.last_success).toBe(at.toISOString())
})

it('still builds the gate when the stats fail, and reports and records the failure', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const before = await steps()
  const at = new Date(Date.now() + 60_000)
  await env.GATE.delete(GATE_KEY)
  // The stats are written in batches (each shard's, then control's); the gate only reads.
  const failing = everyBinding((db) =>
    withFaults(db, { batch: () => Promise.reject(new Error('D1 batch unavailable')) }),
  )
  await runCron(at, failing)
  const rows = await steps()
  expect(rows.stats?.last_success).toBe(before.stats?.last_success)
  expect(rows.stats?.last_failure).toBe(at.toISOString())
  expect(rows.stats?.last_error).toContain('D1 batch unavailable')
  expect(rows.gate?.last_success).toBe(at.toISOString())
  expect(await env.GATE.get(GATE_KEY)).not.toBeNull()
  expect(errors.mock.calls.some(([line]) => String(line).includes('"cron":"stats"'))).toBe(true)
  expect(await reportedSteps()).toContain('stats')
})

it('still refreshes the stats when the gate cannot be saved, and reports and records it', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const at = new Date(Date.now() + 120_000)
  const gate = withFaults(env.GATE, { put: () => Promise.reject(new Error('KV unavailable')) })
  // A city added since the gate was stored: the step must save it.
  await env.CONTROL.prepare(
    "INSERT INTO city_additions (slug) VALUES ('saved-by-the-gate-ga')",
  ).run()
  await runCron(at, { GATE: gate })
  const rows = await steps()
  expect(rows.stats?.last_success).toBe(at.toISOString())
  expect(rows.gate?.last_failure).toBe(at.toISOString())
  expect(rows.gate?.last_error).toContain('KV unavailable')
  expect(rows.gate?.last_success).not.toBe(at.toISOString())
  expect(await reportedSteps()).toContain('gate')
})
