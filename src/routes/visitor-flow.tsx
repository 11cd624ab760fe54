import type { Context, Handler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { HTTPException } from 'hono/http-exception'
import { BUYING_INTENTS } from '../catalog/enums'
import {
  findSegment,
  FLOW_SEGMENTS,
  isAdultCare,
  KINDS_OF_WORK,
  START_DATES,
  WHO_NEEDS_CARE,
} from '../catalog/segments'
import { findService } from '../catalog/services'
import type { AppEnv } from '../env'
import { COOKIE_OPTIONS } from '../request/visitor-cookies'
import { pageHead } from '../seo/head'
import { decideIndexing } from '../seo/indexability'
import type { Question } from '../views/flow/choice-page'
import { ChoicePage } from '../views/flow/choice-page'
import { isDataPath } from '../urls/data-prefix'
import {
  flowPath,
  providerEntryPath,
  servicePath,
  whoNeedsCarePath,
  withQuery,
} from '../urls/paths'
import type { ServesPage } from '../urls/return-path'
import { FROM, returnPathOf } from '../urls/return-path'
import { renderDocument } from './render-document'

/** The `csc` cookie of a visitor after care: the segment (s), buying intent (i), who needs care (w). */
export interface Choice {
  s: string
  i: string
  w?: string
}

/** The `csc` cookie of a visitor after work (role `r=provider`): the kind of work (s), the start (i). */
export interface WorkChoice {
  s: string
  i: string
}

const PROVIDER_ROLE = 'provider'

function cookieOf(c: Context): URLSearchParams {
  return new URLSearchParams(getCookie(c, 'csc') ?? '')
}

/** A care visitor's choice, or null (none, a provider's, or one that does not hold). */
export function readChoice(c: Context): Choice | null {
  const params = cookieOf(c)
  const s = params.get('s')
  const i = params.get('i')
  const w = params.get('w')
  if (params.has('r') || !s || !FLOW_SEGMENTS.includes(s) || !i || !isOneOf(i, BUYING_INTENTS))
    return null
  return w && isOneOf(w, WHO_NEEDS_CARE) ? { s, i, w } : { s, i }
}

/** A provider's choice, or null. */
function readWorkChoice(c: Context): WorkChoice | null {
  const params = cookieOf(c)
  const s = params.get('s')
  const i = params.get('i')
  if (params.get('r') !== PROVIDER_ROLE || !s || !i) return null
  return isOneOf(s, KINDS_OF_WORK) && isOneOf(i, START_DATES) ? { s, i } : null
}

function writeChoice(c: Context, choice: Record<string, string>): void {
  setCookie(c, 'csc', new URLSearchParams(choice).toString(), COOKIE_OPTIONS)
}

function isOneOf(value: string, choices: readonly { value: string }[]): boolean {
  return choices.some((choice) => choice.value === value)
}

function labelOf(value: string, choices: readonly { value: string; label: string }[]): string {
  return choices.find((choice) => choice.value === value)?.label ?? value
}

/** The one value of a flow question, checked against its choices; anything else is a 400. */
function answer(c: Context, name: string, choices: readonly { value: string }[]): string | null {
  const values = new URL(c.req.url).searchParams.getAll(name)
  if (values.length === 0) return null
  const value = values[0] ?? ''
  if (values.some((v) => v !== value) || !isOneOf(value, choices)) {
    throw new HTTPException(400, {
      message: `"${value.slice(0, 40)}" is not a valid answer to "${name}"`,
    })
  }
  return value
}

/** The page the visitor came from, when the query names one the site serves; else null. */
function cameFrom(c: Context, servesPage: ServesPage): string | null {
  return returnPathOf(c.req.query(FROM), servesPage)
}

// A flow step is about one visitor: never stored by a shared cache, never indexed.
const PRIVATE = { 'cache-control': 'private, no-store' }
const STEP = decideIndexing({ private: true })

const INTENT_CHOICES = BUYING_INTENTS.map((b) => ({ value: b.value, label: b.label }))

/**
 * `/us-subscription/segment/nonmember/{segment}`: asks the buying intent. The form submits to
 * the same path; a valid choice is stored in `csc` and the visitor goes on: adult care to the
 * in-facility step, everyone else back to the page they came from (`from`), or without one to
 * the segment's page.
 */
export function intentStep(servesPage: ServesPage): Handler<AppEnv> {
  return async (c) => {
    const segment = c.req.param('segment') ?? ''
    const intent = answer(c, 'intent', BUYING_INTENTS)
    const from = cameFrom(c, servesPage)
    // A listing's intent island saves the choice at /_data{path} and is told where the flow goes on.
    if (isDataPath(c.req.path) && !intent) throw new HTTPException(400, { message: 'no intent' })
    if (intent) {
      writeChoice(c, { s: segment, i: intent })
      const next = isAdultCare(segment)
        ? withQuery(whoNeedsCarePath, { [FROM]: from })
        : (from ?? servicePath(segment))
      return isDataPath(c.req.path) ? c.json({ next }, 200, PRIVATE) : c.redirect(next, 303)
    }
    const title = segmentTitle(segment)
    const path = flowPath(segment)
    return renderDocument(
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
        questions={[{ name: 'intent', legend: 'When do you need care?', choices: INTENT_CHOICES }]}
        hidden={{ [FROM]: from }}
      />,
      { decision: STEP, headers: PRIVATE },
    )
  }
}

function segmentTitle(segment: string): string {
  return findSegment(segment)?.title ?? findService(segment)?.title ?? 'Care'
}

/**
 * `/us-subscription/segment/nonmember/in-facility/who-needs-care`: the in-facility step of adult
 * care. Its answer completes the buying intent of step 1, kept in `csc` for the same segment.
 * A visitor without one (sent straight here by the adult care enrollment rollout, or whose
 * cookie is gone) is asked both questions on this one page: the flow gets shorter, no step is
 * asked twice and no intent is made up. Then back to `from`, or the segment's page.
 */
export function whoNeedsCareStep(servesPage: ServesPage): Handler<AppEnv> {
  return async (c) => {
    const who = answer(c, 'who', WHO_NEEDS_CARE)
    const intent = answer(c, 'intent', BUYING_INTENTS)
    const from = cameFrom(c, servesPage)
    const saved = readChoice(c)
    const named = c.req.query('segment') ?? ''
    // The segment a call to action names, else the one of step 1, else adult care, the umbrella.
    const segment = isAdultCare(named)
      ? named
      : saved && isAdultCare(saved.s)
        ? saved.s
        : 'adult-care'
    const kept = saved?.s === segment ? saved : null
    const stepOne = intent ? { s: segment, i: intent } : kept
    if (who && stepOne) {
      writeChoice(c, { s: stepOne.s, i: stepOne.i, w: who })
      return c.redirect(from ?? servicePath(segment), 303)
    }
    const whoQuestion: Question = {
      name: 'who',
      legend: 'Who needs care?',
      choices: WHO_NEEDS_CARE,
      chosen: who,
    }
    const asksIntent = !kept || intent !== null
    return renderDocument(
      c,
      <ChoicePage
        head={pageHead(c.env.PUBLIC_ORIGIN, {
          title: 'Who needs care?',
          description: 'Tell us who needs care so we can suggest the right kind of help.',
          path: whoNeedsCarePath,
          decision: STEP,
          crumbs: null,
        })}
        step={`${segmentTitle(segment)} · ${asksIntent ? 'Care at home or in a facility' : 'Step 2'}`}
        heading={asksIntent ? 'When do you need care, and for whom?' : 'Who needs care?'}
        lede="Knowing who the care is for helps us suggest caregivers with the right experience."
        action={whoNeedsCarePath}
        questions={
          asksIntent
            ? [
                {
                  name: 'intent',
                  legend: 'When do you need care?',
                  choices: INTENT_CHOICES,
                  chosen: intent,
                },
                whoQuestion,
              ]
            : [whoQuestion]
        }
        hidden={{ segment: named === segment ? segment : null, [FROM]: from }}
      />,
      { decision: STEP, headers: PRIVATE },
    )
  }
}

/**
 * `/us-subscription/segment/nonmember/provider`: the entry of people who want care work (a
 * job's "Apply now", camps pages' "List your activities", the provider sign-up banner). It asks
 * the kind of work (the job families) and when they can start (the four intent values, worded
 * for work), both on one GET form; a call to action may choose the kind of work for them
 * (`work`). Both answers are kept in `csc` with the provider role (`r=provider&s=<work>&i=<start>`)
 * and the visitor goes back to `from`, or without one to this page, which then shows what it
 * noted.
 */
export function providerEntry(servesPage: ServesPage): Handler<AppEnv> {
  return async (c) => {
    const work = answer(c, 'work', KINDS_OF_WORK)
    const start = answer(c, 'start', START_DATES)
    const from = cameFrom(c, servesPage)
    if (work && start) {
      writeChoice(c, { r: PROVIDER_ROLE, s: work, i: start })
      return c.redirect(from ?? providerEntryPath, 303)
    }
    const saved = readWorkChoice(c)
    const notice =
      saved && !work && !start
        ? `Noted: ${labelOf(saved.s, KINDS_OF_WORK)}, starting ${labelOf(saved.i, START_DATES).toLowerCase()}. You can change your answers here.`
        : null
    return renderDocument(
      c,
      <ChoicePage
        head={pageHead(c.env.PUBLIC_ORIGIN, {
          title: 'Find care jobs near you',
          description: 'Tell us the work you want and when you can start.',
          path: providerEntryPath,
          decision: STEP,
          crumbs: null,
        })}
        step="Care work · Step 1"
        heading="What work are you looking for?"
        lede="Tell us the kind of work you want and when you can start, and we'll show you jobs that fit."
        action={providerEntryPath}
        questions={[
          {
            name: 'work',
            legend: 'What kind of work do you want?',
            choices: KINDS_OF_WORK,
            chosen: work ?? saved?.s,
          },
          {
            name: 'start',
            legend: 'When can you start?',
            choices: START_DATES,
            chosen: start ?? saved?.i,
          },
        ]}
        hidden={{ [FROM]: from }}
        notice={notice}
      />,
      { decision: STEP, headers: PRIVATE },
    )
  }
}
