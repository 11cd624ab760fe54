import { forgetOldPurges } from '../cache/generations'
import { forgetOldAudit } from '../cache/purge-audit'
import { forgetOldMessages } from '../data/guest-messages'
import { buildGate } from '../gate/build-gate'
import { saveGate } from '../gate/gate-store'
import type { DerivedReads } from '../data/derived-reads'
import { refreshStats } from '../data/refresh-stats'
import { logProblem } from '../observability/reporter'

/** The cron's steps, each run whatever became of the other. */
export const CRON_STEPS = ['stats', 'gate', 'purges', 'audit', 'messages'] as const
export type CronStep = (typeof CRON_STEPS)[number]

/** Where a failed step is reported: the worker sends it to Sentry (src/worker.ts). */
export type ReportStep = (step: CronStep, error: unknown) => void

const logStep: ReportStep = (step, error) =>
  logProblem('cron: step failed', { step, error: String(error) })

// Longer errors are cut in the row: the report has them whole.
const MAX_ERROR = 500

/**
 * What the cron trigger keeps fresh from the catalog: the per-city aggregates (`stats`) and the
 * gate of valid slugs (`gate`); and what it keeps bounded: the purge rows (`purges`), the
 * purge audit log (`audit`) and the guest messages (`messages`). Each step reads the catalog alone, so one failing never stops
 * the other: each is run, a failure is reported, and the outcome is recorded in `cron_steps`
 * (docs/operations.md). The isolate running it forgets its derived reads at once
 * (`derivedReads`, the worker's app's); other isolates catch up within a minute, and pick up
 * the new gate within GATE_MAX_AGE_MS. Resolves to the steps that failed.
 */
export async function refreshDerived(
  env: Pick<Env, 'DB' | 'GATE'>,
  now: Date,
  derivedReads: DerivedReads,
  report: ReportStep = logStep,
): Promise<CronStep[]> {
  const steps: Record<CronStep, () => Promise<void>> = {
    stats: async () => {
      await refreshStats(env.DB, now)
      derivedReads.clear()
    },
    gate: async () => saveGate(env.GATE, await buildGate(env.DB, now)),
    // Purges older than any stored page: the table stays at about 9 days of purges.
    purges: async () => void (await forgetOldPurges(env.DB, now.getTime())),
    // The purge audit log keeps AUDIT_KEEP_DAYS.
    audit: async () => void (await forgetOldAudit(env.DB, now.getTime())),
    // Guest messages are kept MESSAGE_KEEP_DAYS.
    messages: async () => void (await forgetOldMessages(env.DB, now.getTime())),
  }
  const failed: CronStep[] = []
  for (const step of CRON_STEPS) {
    let failure: { error: unknown } | undefined
    try {
      await steps[step]()
    } catch (error) {
      failure = { error }
      failed.push(step)
      report(step, error)
    }
    await record(env.DB, step, now, failure).catch((error: unknown) =>
      logProblem('cron: outcome not recorded', { step, error: String(error) }),
    )
  }
  return failed
}

/** A step's outcome in `cron_steps`: its last success, or its last failure and error. */
async function record(
  db: D1Database,
  step: CronStep,
  now: Date,
  failure: { error: unknown } | undefined,
): Promise<void> {
  const at = now.toISOString()
  const statement =
    failure === undefined
      ? db
          .prepare(
            `INSERT INTO cron_steps (step, last_success) VALUES (?, ?)
             ON CONFLICT (step) DO UPDATE SET last_success = excluded.last_success`,
          )
          .bind(step, at)
      : db
          .prepare(
            `INSERT INTO cron_steps (step, last_failure, last_error) VALUES (?, ?, ?)
             ON CONFLICT (step) DO UPDATE
             SET last_failure = excluded.last_failure, last_error = excluded.last_error`,
          )
          .bind(step, at, String(failure.error).slice(0, MAX_ERROR))
  await statement.run()
}
