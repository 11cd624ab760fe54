import type { Context } from 'hono'
import { consolePurge, previewPurge } from '../cache/purge-preview'
import { purgePath, purgeTags } from '../cache/purge'
import { auditEntry, recentPurges } from '../cache/purge-audit'
import { runPurge } from '../cache/run-purge'
import type { AppEnv } from '../env'
import type { OpsPerson } from '../request/ops-access'
import { allows, withAccess } from '../request/ops-access'
import {
  OPS_CHECK,
  OPS_PURGE_PREVIEW,
  OPS_PREFIX,
  OPS_PURGES,
  opsPurgeResultPath,
} from '../urls/paths'
import type { PurgeFormState } from '../views/ops/ops-types'
import {
  AuditFilter,
  AuditTable,
  PageCheck,
  PurgeForm,
  PurgePreview,
  PurgeResult,
} from '../views/ops/purge-views'
import { consoleJson, consolePage, onPublicOrigin } from './ops-page'
import { databasesOf } from '../data/databases'

// The ops console's purge pages (docs/operations.md, "The ops console"): forms that post and
// redirect, each request behind Access (src/request/ops-access.ts).

const EMPTY_FORM: PurgeFormState = { by: 'url', value: '', error: null }

/** The purge form, or for a viewer what they may do; with the latest purges. */
function purgeHome(c: Context<AppEnv>, person: OpsPerson, form: PurgeFormState, status = 200) {
  return (async () => {
    const rows = await recentPurges(c.env.CONTROL, { who: '', tag: '', limit: 10 })
    const body = (
      <>
        {allows(person.role, 'purger') ? (
          <PurgeForm action={OPS_PURGE_PREVIEW} state={form} />
        ) : (
          <p className="warning">You may look; purging needs the purger role.</p>
        )}
        <h2>Latest purges</h2>
        <AuditTable rows={rows} />
      </>
    )
    return consolePage(c, person, 'Purge the edge cache', body, status)
  })()
}

/** GET /__ops: the console's first page. */
export const opsConsole = withAccess('viewer', (c, person) => purgeHome(c, person, EMPTY_FORM))

/** The tags a purge named by `by` and `value` resolves to, with what each reaches; or why not. */
async function previewOf(c: Context<AppEnv>, by: string, value: string) {
  const named = consolePurge(by, onPublicOrigin(c, value), c.env.PUBLIC_ORIGIN)
  if ('error' in named) return named
  const resolved = purgeTags(named.request, c.env.PUBLIC_ORIGIN)
  if ('error' in resolved) return resolved
  return { tags: await previewPurge(databasesOf(c.env), resolved.tags) }
}

/** GET /__ops/purges/preview?by=&value=: what the purge would reach, and its confirmation. */
export const opsPurgePreview = withAccess('purger', async (c, person) => {
  const by = c.req.query('by') ?? ''
  const value = c.req.query('value') ?? ''
  const preview = await previewOf(c, by, value)
  if ('error' in preview) return purgeHome(c, person, { by, value, error: preview.error }, 400)
  const state = { by, value, error: null }
  const body = (
    <PurgePreview tags={preview.tags} state={state} action={OPS_PURGES} csrf={person.csrf} />
  )
  return consolePage(c, person, 'Confirm the purge', body)
})

/**
 * GET /__ops/live/purge-preview?by=&value=: the same preview as JSON, for the purge form's
 * island as the value is typed: `{ tags }`, or 400 and `{ error }` with the field's reason.
 */
export const opsLivePreview = withAccess('purger', async (c) => {
  const preview = await previewOf(c, c.req.query('by') ?? '', c.req.query('value') ?? '')
  return consoleJson(c, preview, 'error' in preview ? 400 : 200)
})

/** POST /__ops/purges: makes the purge, writes its audit row, redirects to its result. */
export const opsPurgeConfirm = withAccess('purger', async (c, person, form) => {
  const by = form.get('by') ?? ''
  const value = form.get('value') ?? ''
  const named = consolePurge(by, onPublicOrigin(c, value), c.env.PUBLIC_ORIGIN)
  const resolved = 'error' in named ? named : purgeTags(named.request, c.env.PUBLIC_ORIGIN)
  if ('error' in resolved) return purgeHome(c, person, { by, value, error: resolved.error }, 400)
  const outcome = await runPurge(
    { db: c.env.CONTROL, known: c.get('memory').purges, problem: c.get('reporter').problem },
    person.email,
    {
      paths: resolved.paths,
      tags: 'error' in named ? [] : named.request.tags,
      bumped: resolved.tags,
    },
    Date.now(),
  )
  if (outcome.auditId === null || 'failed' in outcome) {
    const error = 'failed' in outcome ? 'the purge was not recorded: try again' : null
    const state = { by, value, error: error ?? 'purged, but its audit row was not written' }
    return purgeHome(c, person, state, 'failed' in outcome ? 503 : 200)
  }
  return c.redirect(opsPurgeResultPath(outcome.auditId), 303)
})

/** GET /__ops/purges/:id: one purge as the audit log holds it. */
export const opsPurgeResult = withAccess('viewer', async (c, person) => {
  const row = await auditEntry(c.env.CONTROL, Number(c.req.param('id')))
  if (!row)
    return consolePage(c, person, 'No such purge', <p>The audit log has no such row.</p>, 404)
  const path = row.urls[0]
  const checkPath = path ? `${OPS_CHECK}?${new URLSearchParams({ url: path }).toString()}` : null
  return consolePage(c, person, 'Purge made', <PurgeResult row={row} checkPath={checkPath} />)
})

/** GET /__ops/purges?who=&tag=: the audit log, newest first, filtered. */
export const opsPurges = withAccess('viewer', async (c, person) => {
  const who = (c.req.query('who') ?? '').trim().toLowerCase()
  const tag = (c.req.query('tag') ?? '').trim()
  const rows = await recentPurges(c.env.CONTROL, { who, tag, limit: 100 })
  const body = (
    <>
      <AuditFilter action={OPS_PURGES} who={who} tag={tag} />
      <AuditTable rows={rows} />
    </>
  )
  return consolePage(c, person, 'Recent purges', body)
})

/**
 * GET /__ops/check?url=: fetches a page of this site again, through the worker as a visitor's
 * request goes (fast path, edge cache, render), and shows what it answered and how long it took.
 */
export const opsCheck = withAccess('viewer', async (c, person) => {
  const path = purgePath(c.req.query('url') ?? '', c.env.PUBLIC_ORIGIN)
  if (!path || path.startsWith(OPS_PREFIX))
    return consolePage(c, person, 'Not a page', <p>Name a page of this site.</p>, 400)
  const started = Date.now()
  const res = await c.get('fetchSelf')(
    new Request(new URL(path, c.req.url), {
      headers: { 'user-agent': c.req.header('user-agent') ?? 'ops-console' },
    }),
  )
  await res.arrayBuffer()
  const check = {
    path,
    status: res.status,
    cache: res.headers.get('x-cache') ?? 'none',
    ms: Date.now() - started,
    serverTiming: res.headers.get('server-timing') ?? '',
  }
  return consolePage(c, person, 'Page fetched again', <PageCheck {...check} />)
})
