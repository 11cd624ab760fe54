import type { Context } from 'hono'
import { cronSteps } from '../cron/refresh-derived'
import type { AppEnv } from '../env'
import { gateMeta } from '../gate/gate-store'
import type { OpsPerson } from '../request/ops-access'
import { allows, withAccess } from '../request/ops-access'
import { appliedLately } from '../sync/applied-log'
import type { ReplaySelection } from '../sync/dead-letters'
import { openDeadLetters, replayDeadLetters } from '../sync/dead-letters'
import { OPS_HEALTH, OPS_HEALTH_REPLAY } from '../urls/paths'
import { scriptJson } from '../seo/json-ld'
import type { LiveCounts } from '../views/ops/health-views'
import {
  AppliedChanges,
  CronSteps,
  DeadLetters,
  GateBuild,
  LIVE_COUNTS_ID,
  LIVE_COUNTS_STATE_ID,
} from '../views/ops/health-views'
import type { CatalogHealth, ReplayFormState } from '../views/ops/ops-types'
import { consoleJson, consolePage } from './ops-page'

// The ops console's catalog health (docs/operations.md, "Catalog health"): what the sync and the
// cron did lately, and the dead letters, which an editor sends back to the queue.

/** The dead letters the page lists: the oldest; the count says how many more are open. */
const DEAD_SHOWN = 50

async function readHealth(env: Env, now: number): Promise<CatalogHealth> {
  const [applied, dead, cron, gate] = await Promise.all([
    appliedLately(env.CONTROL, now),
    openDeadLetters(env.CONTROL, DEAD_SHOWN),
    cronSteps(env.CONTROL),
    gateMeta(env.GATE),
  ])
  const built = gate && {
    builtAt: gate.builtAt,
    items: gate.items,
    capacity: gate.capacity ?? gate.items,
    bytes: Math.ceil(gate.size / 8),
    hashes: gate.hashes,
  }
  return { now, applied, dead, cron, gate: built }
}

/** The page, with the replay form's state; `notice` says what the last replay did. */
async function healthPage(
  c: Context<AppEnv>,
  person: OpsPerson,
  state: ReplayFormState,
  status = 200,
): Promise<Response> {
  const health = await readHealth(c.env, Date.now())
  const replay = allows(person.role, 'editor')
    ? { action: OPS_HEALTH_REPLAY, csrf: person.csrf, state }
    : null
  const notice = c.req.method === 'GET' ? replayNotice(c) : null
  const counts: LiveCounts = {
    now: health.now,
    applied: health.applied,
    deadOpen: health.dead.open,
  }
  const body = (
    <>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <div id={LIVE_COUNTS_ID}>
        <AppliedChanges counts={counts} />
      </div>
      <script
        type="application/json"
        id={LIVE_COUNTS_STATE_ID}
        dangerouslySetInnerHTML={{ __html: scriptJson(counts) }}
      />
      <DeadLetters dead={health.dead} replay={replay} />
      <CronSteps health={health} />
      <GateBuild health={health} />
    </>
  )
  return consolePage(c, person, 'Catalog health', body, status)
}

/**
 * GET /__ops/live/health: the counts at the top of the health page, as JSON, which its island
 * fetches every few seconds.
 */
export const opsLiveHealth = withAccess('viewer', async (c) => {
  const now = Date.now()
  const [applied, dead] = await Promise.all([
    appliedLately(c.env.CONTROL, now),
    openDeadLetters(c.env.CONTROL, 0),
  ])
  const counts: LiveCounts = { now, applied, deadOpen: dead.open }
  return consoleJson(c, counts)
})

/** GET /__ops/health: the sync, the dead letters, the cron and the gate. */
export const opsHealth = withAccess('viewer', (c, person) =>
  healthPage(c, person, { id: '', error: null }),
)

/**
 * POST /__ops/health/replay (`id`, or `all`): sends dead letters back to the queue through the
 * same `replayDeadLetters` as POST /__ops/catalog/replay and the CLI, with the audit row naming
 * the person; then back to the page, saying what it did.
 */
export const opsHealthReplay = withAccess('editor', async (c, person, form) => {
  const id = (form.get('id') ?? '').trim().replace(/^#/, '')
  let selection: ReplaySelection
  if (form.get('all') === '1') selection = 'open'
  else if (/^[1-9][0-9]{0,14}$/.test(id)) selection = { ids: [Number(id)] }
  else {
    const error = id ? `"${id}" is not a dead letter's number` : 'name a dead letter by its number'
    return healthPage(c, person, { id, error }, 400)
  }
  const replay = await replayDeadLetters(
    c.env.CONTROL,
    c.env.CATALOG_CHANGES,
    selection,
    person.email,
  )
  if ('missing' in replay)
    return healthPage(c, person, { id, error: `there is no dead letter #${id}` }, 400)
  if ('error' in replay)
    return healthPage(c, person, { id, error: `not replayed, ${replay.error}: try again` }, 503)
  if (!replay.logged) c.get('reporter').problem('sync: replay audit row not written')
  const said = new URLSearchParams({
    replayed: String(replay.replayed.length),
    invalid: replay.refused.map((r) => r.id).join(','),
    open: String(replay.remaining),
  })
  return c.redirect(`${OPS_HEALTH}?${said.toString()}`, 303)
})

/** What the replay redirected here did, from its numbers alone (a link cannot make it say more). */
function replayNotice(c: Context<AppEnv>): string | null {
  const count = (name: string) => /^[0-9]{1,15}$/.exec(c.req.query(name) ?? '')?.[0]
  const replayed = count('replayed')
  if (replayed === undefined) return null
  const invalid = (c.req.query('invalid') ?? '').split(',').filter((id) => /^[0-9]{1,15}$/.test(id))
  const said = [`${replayed} sent back to the queue`]
  if (invalid.length) said.push(`still invalid, kept: ${invalid.map((id) => `#${id}`).join(', ')}`)
  return `Replayed: ${[...said, `${count('open') ?? '?'} open`].join('; ')}.`
}
