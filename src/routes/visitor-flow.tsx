import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { HTTPException } from 'hono/http-exception'
import { BUYING_INTENTS } from '../catalog/enums'
import { findSegment, FLOW_SEGMENTS, isAdultCare, WHO_NEEDS_CARE } from '../catalog/segments'
import { findService } from '../catalog/services'
import type { AppEnv } from '../env'
import type { On } from '../flags/visibility'
import { startsAtEnrollment } from '../flags/visibility'
import type { IntentQuestion } from '../views/listing/listing-state'
import { COOKIE_OPTIONS } from '../request/visitor-cookies'
import { pageHead } from '../seo/head'
import { decideIndexing } from '../seo/indexability'
import { ChoicePage } from '../views/flow/choice-page'
import { isDataPath } from '../urls/data-prefix'
import { flowPath, servicePath, whoNeedsCarePath } from '../urls/paths'
import { renderPage } from './render-page'

/** The `csc` cookie: the visitor's chosen segment (s), buying intent (i) and who needs care (w). */
export interface Choice {
  s: string
  i: string
  w?: string
}

export function readChoice(c: Context): Choice | null {
  const params = new URLSearchParams(getCookie(c, 'csc') ?? '')
  const s = params.get('s')
  const i = params.get('i')
  const w = params.get('w')
  if (!s || !FLOW_SEGMENTS.includes(s) || !BUYING_INTENTS.some((b) => b.value === i) || !i)
    return null
  return w && WHO_NEEDS_CARE.some((x) => x.value === w) ? { s, i, w } : { s, i }
}

function writeChoice(c: Context, choice: Choice): void {
  setCookie(c, 'csc', new URLSearchParams({ ...choice }).toString(), COOKIE_OPTIONS)
}

/** The one value of a flow question, checked against its choices; anything else is a 400. */
function answer(c: Context, name: string, choices: readonly { value: string }[]): string | null {
  const values = new URL(c.req.url).searchParams.getAll(name)
  if (values.length === 0) return null
  const value = values[0] ?? ''
  if (values.some((v) => v !== value) || !choices.some((choice) => choice.value === value)) {
    throw new HTTPException(400, {
      message: `"${value.slice(0, 40)}" is not a valid answer to "${name}"`,
    })
  }
  return value
}

/**
 * The buying-intent question a listing asks, into the flow of its segment; none where adult
 * care goes straight to the new enrollment step (flag adultCareEnrollmentRollout).
 */
export function intentQuestion(segment: string, question: string, on: On): IntentQuestion | null {
  if (startsAtEnrollment(segment, on)) return null
  return {
    action: flowPath(segment),
    question,
    choices: BUYING_INTENTS.map((b) => ({ value: b.value, label: b.label })),
  }
}

// A flow step is about one visitor: never stored by a shared cache, never indexed.
const PRIVATE = { 'cache-control': 'private, no-store' }
const STEP = decideIndexing({ private: true })

/**
 * `/us-subscription/segment/nonmember/{segment}`: asks the buying intent. The form submits to
 * the same path; a valid choice is stored in `csc` and the visitor goes on: adult care to the
 * in-facility step, everyone else back to the segment's page.
 */
export async function intentStep(c: Context<AppEnv>): Promise<Response> {
  const segment = c.req.param('segment') ?? ''
  const intent = answer(c, 'intent', BUYING_INTENTS)
  // A listing's intent island saves the choice at /_data{path} and is told where the flow goes on.
  if (isDataPath(c.req.path) && !intent) throw new HTTPException(400, { message: 'no intent' })
  if (intent) {
    writeChoice(c, { s: segment, i: intent })
    const next = isAdultCare(segment) ? whoNeedsCarePath : servicePath(segment)
    return isDataPath(c.req.path) ? c.json({ next }, 200, PRIVATE) : c.redirect(next, 303)
  }
  const title = findSegment(segment)?.title ?? findService(segment)?.title ?? 'Care'
  const path = flowPath(segment)
  return renderPage(
    c,
    <ChoicePage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: `When do you need ${title.toLowerCase()}?`,
        description: `Tell us when you need ${title.toLowerCase()} and we'll show you who can help.`,
        path,
        decision: STEP,
        crumbs: null,
      })}
      step={`${title} · Step 1`}
      heading="When do you need care?"
      lede="We'll show you caregivers who are available when you need them."
      action={path}
      name="intent"
      choices={BUYING_INTENTS.map((b) => ({ value: b.value, label: b.label }))}
    />,
    { decision: STEP, headers: PRIVATE },
  )
}

/**
 * Where a visitor who answers the in-facility step without a step 1 behind them starts: the
 * intent question of adult care, the umbrella of every segment that leads to this step.
 */
const FIRST_STEP = flowPath('adult-care')

/**
 * `/us-subscription/segment/nonmember/in-facility/who-needs-care`: the in-facility step. Its
 * answer completes the choice of step 1 in `csc`; without one (no cookie, or one that does not
 * hold), nothing is stored and the visitor is asked step 1 first, rather than given an intent
 * they never chose.
 */
export async function whoNeedsCareStep(c: Context<AppEnv>): Promise<Response> {
  const who = answer(c, 'who', WHO_NEEDS_CARE)
  const choice = readChoice(c)
  if (who) {
    if (!choice) return c.redirect(FIRST_STEP, 303)
    writeChoice(c, { ...choice, w: who })
    return c.redirect(servicePath(choice.s), 303)
  }
  return renderPage(
    c,
    <ChoicePage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: 'Who needs care?',
        description: 'Tell us who needs care so we can suggest the right kind of help.',
        path: whoNeedsCarePath,
        decision: STEP,
        crumbs: null,
      })}
      step="Care at home or in a facility · Step 2"
      heading="Who needs care?"
      lede="Knowing who the care is for helps us suggest caregivers with the right experience."
      action={whoNeedsCarePath}
      name="who"
      choices={WHO_NEEDS_CARE}
    />,
    { decision: STEP, headers: PRIVATE },
  )
}
