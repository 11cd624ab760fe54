import { forgetOldPurges } from '../cache/generations'
import { forgetOldAudit } from '../cache/purge-audit'
import { forgetOldMessages } from '../data/guest-messages'
import type { DatabaseEnv } from '../data/databases'
import { databasesOf } from '../data/databases'
import { buildGate, extendGate } from '../gate/build-gate'
import { readGate, saveGate } from '../gate/gate-store'
import type { DerivedReads } from '../data/derived-reads'
import { logProblem } from '../observability/reporter'
import { forgetOldApplied } from '../sync/applied-log'
import { flushPendingPurges } from '../sync/purge-tags'
import { flushOutboxes } from '../sync/routed-apply'
import { statsUpkeepRouted } from '../sync/stats-upkeep'

/** The cron's steps, each run whatever became of the other. */
export const CRON_STEPS = [
  'outbox',
  'stats',
  'gate',
  'purges',
  'audit',
  'messages',
  'sync',
] as const
export type CronStep = (typeof CRON_STEPS)[number]

/** Where a failed step is reported: the worker sends it to Sentry (src/worker.ts). */
export type ReportStep = (step: CronStep, error: unknown) => void

const logStep: ReportStep = (step, error) =>
  logProblem('cron: step failed', { step, error: String(error) })

// Longer errors are cut in the row: the report has them whole.
const MAX_ERROR = 500

/**
 * What the cron trigger (every minute) keeps fresh, by what changed rather than from the whole
 * catalog: the stats of jobs and activities that time closed, and a rotating slice of cities
 * checked against a recompute (`stats`, src/sync/stats-upkeep.ts; the sync consumer keeps the rest
 * current); the gate of valid slugs, taking in the additions logged since it was stored
 * (`gate`; built again from the catalog only when it has no room left); the aggregate pages'
 * coalesced purges once due, so a quiet stream still purges them, and the purge rows kept bounded
 * (`purges`); the purge audit log (`audit`), the guest messages (`messages`) and the tally of
 * applied catalog changes (`sync`). Each step reads
 * the catalog alone, so one failing never stops the other: each is run, a failure is reported,
 * and the outcome is recorded in `cron_steps` (docs/operations.md). The isolate running it
 * forgets its derived reads at once (`derivedReads`, the worker's app's); other isolates catch up
 * within a minute, and pick up the new gate within GATE_MAX_AGE_MS. Resolves to the steps that
 * failed.
 */
export async function refreshDerived(
  env: DatabaseEnv & Pick<Env, 'GATE'>,
  now: Date,
  derivedReads: DerivedReads,
  report: ReportStep = logStep,
): Promise<CronStep[]> {
  const db = env.CONTROL
  const steps: Record<CronStep, () => Promise<void>> = {
    // The outbox rows a shard wrote that control has not applied (a batch whose control part
    // failed and was not yet retried): applied, so no change waits for the next message.
    outbox: async () => void (await flushOutboxes(databasesOf(env), now)),
    stats: async () => {
      await statsUpkeepRouted(databasesOf(env), now)
      derivedReads.clear()
    },
    gate: async () => {
      const stored = await readGate(env.GATE)
      const since = stored?.meta.cityAdditions
      const extended = await extendGate(db, stored)
      if (!extended) await saveGate(env.GATE, await buildGate(db, now))
      else if (extended.meta.cityAdditions !== since) await saveGate(env.GATE, extended)
    },
    // The coalesced purges that are due; purges older than any stored page: the table stays at
    // about 9 days of purges.
    purges: async () => {
      await flushPendingPurges(db, now.getTime())
      await forgetOldPurges(db, now.getTime())
    },
    // The purge audit log keeps AUDIT_KEEP_DAYS.
    audit: async () => void (await forgetOldAudit(db, now.getTime())),
    // Guest messages are kept MESSAGE_KEEP_DAYS.
    messages: async () => void (await forgetOldMessages(db, now.getTime())),
    // The tally of applied catalog changes keeps a day (APPLIED_KEEP_MS).
    sync: async () => forgetOldApplied(db, now.getTime()),
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
    await record(db, step, now, failure).catch((error: unknown) =>
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

/** A step's row of `cron_steps`: ISO times, null when it never succeeded or never failed. */
export interface CronStepRow {
  step: string
  lastSuccess: string | null
  lastFailure: string | null
  lastError: string | null
}

/** Every step's outcome, in the order they run; a step that never ran has nulls. */
export async function cronSteps(db: D1Database): Promise<CronStepRow[]> {
  const { results } = await db
    .prepare('SELECT step, last_success, last_failure, last_error FROM cron_steps')
    .all<{
      step: string
      last_success: string | null
      last_failure: string | null
      last_error: string | null
    }>()
  return CRON_STEPS.map((step) => {
    const row = results.find((r) => r.step === step)
    return {
      step,
      lastSuccess: row?.last_success ?? null,
      lastFailure: row?.last_failure ?? null,
      lastError: row?.last_error ?? null,
    }
  })
}
