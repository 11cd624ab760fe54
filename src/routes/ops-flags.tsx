import type { Context } from 'hono'
import { writeAuditRow } from '../cache/purge-audit'
import type { AppEnv } from '../env'
import { FLAG_NAMES } from '../flags/definitions'
import type { ChosenVisitor } from '../flags/explain-flag'
import { flagForVisitor } from '../flags/explain-flag'
import type { Target } from '../flags/evaluate'
import { purgePath } from '../cache/purge'
import { isDeviceId } from '../request/visitor-cookies'
import type { FlagStore } from '../flags/flag-commands'
import {
  describeSetting,
  readFlagStore,
  setSetting,
  SETTING_NAMES,
  storedText,
} from '../flags/flag-commands'
import { FLAGS_KEY } from '../flags/schema'
import { lineDiff } from '../lib/line-diff'
import type { OpsPerson } from '../request/ops-access'
import { allows, withAccess } from '../request/ops-access'
import { OPS_FLAG_CHANGE, OPS_FLAG_VISITOR, OPS_FLAGS, OPS_PREFIX } from '../urls/paths'
import type { VisitorFormState } from '../views/ops/flag-views'
import {
  FlagChange,
  FlagForm,
  FlagTable,
  VisitorForm,
  VisitorValues,
} from '../views/ops/flag-views'
import { consolePage, onPublicOrigin } from './ops-page'

// The ops console's flags (docs/operations.md, "Flags in the console"): what `npm run flags`
// lists and explains, and a change shown as a diff before it is saved.

const changePath = (name: string) =>
  `${OPS_FLAG_CHANGE}?${new URLSearchParams({ name }).toString()}`

/** GET /__ops/flags: every flag and configuration key, stored and effective. */
export const opsFlags = withAccess('viewer', async (c, person) => {
  const { store, problem } = await readFlagStore(c.env.FLAGS)
  const rows = SETTING_NAMES.map((name) => {
    const described = describeSetting(store, name) ?? { value: '', source: '' }
    const kind: 'flag' | 'config' = (FLAG_NAMES as readonly string[]).includes(name)
      ? 'flag'
      : 'config'
    return { name, kind, stored: storedText(store, name), ...described }
  })
  const changed = c.req.query('changed')
  const body = (
    <>
      {changed ? (
        <p
          className="notice"
          role="status"
        >{`${changed} saved: every isolate serves it within 20 s.`}</p>
      ) : null}
      {problem ? <p className="warning">{problem}</p> : null}
      <FlagTable rows={rows} editPath={allows(person.role, 'editor') ? changePath : null} />
      <h2>The value a visitor gets</h2>
      <VisitorForm action={OPS_FLAG_VISITOR} state={NO_VISITOR} />
    </>
  )
  return consolePage(c, person, 'Flags and configuration', body)
})

/** The change form of `name`, with `text` and why it was refused, if it was. */
function changeForm(
  c: Context<AppEnv>,
  person: OpsPerson,
  name: string,
  text: string,
  error: string | null,
) {
  const form = (
    <FlagForm action={OPS_FLAG_CHANGE} name={name} text={text} error={error} csrf={person.csrf} />
  )
  return consolePage(c, person, `Change ${name}`, form, error ? 400 : 200)
}

/**
 * GET /__ops/flags/change?name=[&doc=]: the form; with a document, the change as a diff and what
 * the worker will make of it, or the form again with the reason it would refuse it.
 */
export const opsFlagChange = withAccess('editor', async (c, person, form) => {
  // The form posts (a document is several lines and up to a few KB: no query carries it); a
  // link may still name one in the query.
  const posted = c.req.method === 'POST'
  const name = (posted ? form.get('name') : c.req.query('name')) ?? ''
  if (!SETTING_NAMES.includes(name))
    return consolePage(c, person, 'No such flag', <p>{`"${name}" is no flag or key.`}</p>, 404)
  const { store } = await readFlagStore(c.env.FLAGS)
  const before = storedText(store, name)
  const doc = posted ? form.get('doc')?.replace(/\r\n?/g, '\n') : c.req.query('doc')
  if (doc === undefined || doc === null) return changeForm(c, person, name, before, null)
  const next = setSetting(store, name, doc)
  if ('error' in next) return changeForm(c, person, name, doc, next.error)
  const after = storedText(next.store, name)
  const value = describeSetting(next.store, name)?.value ?? ''
  const change = { name, before, after, value, diff: lineDiff(before, after), csrf: person.csrf }
  return consolePage(c, person, `Change ${name}`, <FlagChange action={OPS_FLAGS} {...change} />)
})

/**
 * POST /__ops/flags: saves a previewed change, if the document is still what the preview was
 * made against, and writes its audit row; then back to the list.
 */
export const opsFlagSave = withAccess('editor', async (c, person, form) => {
  // A browser sends a field's line breaks as CRLF (the HTML form encoding): the documents' are LF.
  const field = (key: string) => (form.get(key) ?? '').replace(/\r\n?/g, '\n')
  const name = field('name')
  const doc = field('doc')
  if (!SETTING_NAMES.includes(name))
    return consolePage(c, person, 'No such flag', <p>{`"${name}" is no flag or key.`}</p>, 404)
  const { store } = await readFlagStore(c.env.FLAGS)
  if (storedText(store, name) !== field('before'))
    return changeForm(c, person, name, doc, 'changed by someone else since: look at it again')
  const next = setSetting(store, name, doc)
  if ('error' in next) return changeForm(c, person, name, doc, next.error)
  const saved = await save(c, person, name, next.store)
  if (saved) return changeForm(c, person, name, doc, saved)
  return c.redirect(`${OPS_FLAGS}?${new URLSearchParams({ changed: name }).toString()}`, 303)
})

/** Writes the store and the audit row; why it failed, or null. */
async function save(
  c: Context<AppEnv>,
  person: OpsPerson,
  name: string,
  store: FlagStore,
): Promise<string | null> {
  let failed: string | null = null
  try {
    await c.env.FLAGS.put(FLAGS_KEY, JSON.stringify(store))
    // This isolate reads the new document on its next request; others within their 20 s.
    c.get('memory').flags.expire()
  } catch (error) {
    failed = `not saved: ${String(error)}`
  }
  const at = new Date().toISOString()
  const value = storedText(store, name).replace(/\s+/g, ' ').slice(0, 300)
  const outcome = failed ? `flag ${name} ${failed}` : `flag ${name} set: ${value || 'default'}`
  const row = await writeAuditRow(c.env.CONTROL, {
    at,
    who: person.email,
    urls: [],
    tags: [],
    purged: 0,
    outcome,
  })
  if ('error' in row)
    c.get('reporter').problem('flags: audit row not written', { error: row.error })
  return failed
}

const NO_VISITOR: VisitorFormState = {
  url: '',
  visitor: 'new',
  device: '',
  bot: false,
  error: null,
}

/** What a page's target says, in words. */
const targetText = (path: string, t: Target) =>
  `${path}: ${
    [
      t.pageType && `page type ${t.pageType}`,
      t.service && `service ${t.service}`,
      t.city && `city ${t.city}`,
      t.state && `state ${t.state}`,
    ]
      .filter(Boolean)
      .join(', ') || 'no page of the table'
  }`

/** The form's fields: the page's path and the visitor, or the form again with why not. */
function chosen(
  c: Context<AppEnv>,
  state: VisitorFormState,
): { path: string; visitor: ChosenVisitor } | VisitorFormState {
  const path = purgePath(onPublicOrigin(c, state.url), c.env.PUBLIC_ORIGIN)
  if (!state.url.trim() || !path || path.startsWith(OPS_PREFIX))
    return { ...state, error: { field: 'url', message: 'name a page of this site' } }
  if (state.visitor === 'new') return { path, visitor: { kind: 'new', bot: state.bot } }
  if (!isDeviceId(state.device.trim().toLowerCase()))
    return {
      ...state,
      error: {
        field: 'device',
        message:
          'not a device id: a returning visitor’s care_did cookie holds one, such as 0d5e6c1a-4b8f-4c3e-9a2d-7f1e2b3c4d5e',
      },
    }
  const deviceId = state.device.trim().toLowerCase()
  return { path, visitor: { kind: 'returning', deviceId, bot: state.bot } }
}

/**
 * GET /__ops/flags/visitor?url=&visitor=new|returning&device=&bot=1: every flag's value for that
 * visitor on that page, decided as the worker decides it (`flagForVisitor`).
 */
export const opsFlagVisitor = withAccess('viewer', async (c, person) => {
  const state: VisitorFormState = {
    url: c.req.query('url') ?? '',
    visitor: c.req.query('visitor') === 'returning' ? 'returning' : 'new',
    device: c.req.query('device') ?? '',
    bot: c.req.query('bot') === '1',
    error: null,
  }
  const asked = chosen(c, state)
  const form = (s: VisitorFormState) => <VisitorForm action={OPS_FLAG_VISITOR} state={s} />
  if (!('path' in asked))
    return consolePage(c, person, 'The value a visitor gets', form(asked), 400)
  const { store } = await readFlagStore(c.env.FLAGS)
  const { target } = c.get('pageOf')(asked.path)
  const rows = FLAG_NAMES.map((name) => ({
    name,
    ...flagForVisitor(store, name, asked.visitor, target),
  }))
  const body = (
    <>
      {form(state)}
      <VisitorValues page={targetText(asked.path, target)} rows={rows} />
    </>
  )
  return consolePage(c, person, 'The value a visitor gets', body)
})
