import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { RowSample } from '../scripts/sample-pages'
import { ROW_SAMPLES } from '../scripts/sample-pages'
import type { PageName } from '../src/pages'
import { CRAWLER_FILES } from '../src/pages'
import { aProvider, cityId } from './support/builders'
import { anIsolate, cardLinks, fetchPage, ORIGIN, settled } from './support/fetch-page'
import { htmlProblems } from './support/html-validity'
import { aMessage } from './sync/examples'
import { applyAcross, fromShards, statementFaultsEverywhere } from './support/databases'

// Every page a person can be sent, valid by the WHATWG rules of `.htmlvalidate.json`: one or
// more samples of each row of the page table, the visitor flow and the message form, and every
// error page a request can end on.

/** A row's sample as a path: fixed, or the first link of its kind on the page it names. */
async function samplePath(sample: RowSample): Promise<string> {
  if (typeof sample === 'string') return sample
  const html = await (await fetchPage(sample.from)).text()
  const path = sample.link.exec(html)?.[1]
  if (!path) throw new Error(`no ${sample.link.source} link on ${sample.from}`)
  return path
}

const rows = (Object.entries(ROW_SAMPLES) as [PageName, readonly RowSample[]][]).filter(
  ([name]) => !CRAWLER_FILES.has(name),
)

/** The page's status and its validity problems, each line naming the page. */
async function problemsOf(path: string, init: RequestInit = {}, bindings: Partial<Env> = {}) {
  const { res, body } = await settled(path, init, bindings)
  expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
  return { status: res.status, problems: await htmlProblems(body) }
}

describe('every page type is valid HTML', () => {
  it.each(rows)('%s', async (_name, samples) => {
    for (const sample of samples) {
      const path = await samplePath(sample)
      const { status, problems } = await problemsOf(path)
      expect([path, status]).toEqual([path, 200])
      expect(problems, path).toEqual([])
    }
  })

  it('the visitor flow’s steps, the message form, its errors and its confirmation', async () => {
    await env.FLAGS.put('flags', '{"flags":{"embeddedGuestMessaging":{"state":"ENABLED"}}}')
    const isolate = anIsolate()
    const [profile] = cardLinks((await isolate.page('/babysitters/atlanta-ga')).html)
    if (!profile) throw new Error('no profile on /babysitters/atlanta-ga')
    const post = (fields: Record<string, string>) =>
      isolate.page(`${profile}/message`, {
        method: 'POST',
        headers: {
          origin: ORIGIN,
          cookie: 'care_did=55555555-5555-4555-8555-555555555555',
          'cf-connecting-ip': '198.51.100.200',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields).toString(),
      })
    const pages = [
      await isolate.page(profile),
      await isolate.page('/us-subscription/segment/nonmember/in-facility/who-needs-care'),
      await isolate.page('/us-subscription/segment/nonmember/provider'),
      await post({ name: 'Dana', email: 'dana-at-example', message: 'Hi' }),
      await isolate.page(`${profile}/message/sent`),
    ]
    await env.FLAGS.delete('flags')
    expect(pages.map((p) => p.res.status)).toEqual([200, 200, 200, 422, 200])
    for (const { res, html } of pages) expect(await htmlProblems(html), res.url).toEqual([])
  })
})

describe('every error page is valid HTML', () => {
  it.each([
    ['an unknown path (404)', '/no/such/page', 404],
    ['a city the gate refuses (404)', '/nannies/nowhere-at-all-ga', 404],
    ['an unknown provider (404)', '/p/nobody-999999999', 404],
    ['a page number out of range (400)', '/babysitters/atlanta-ga?page=9999', 400],
    ['a method a page does not take (405)', '/babysitters/atlanta-ga', 405, { method: 'PUT' }],
  ] as const)('%s', async (_what, path, expected, init: RequestInit = {}) => {
    const { status, problems } = await problemsOf(path, init)
    expect(status).toBe(expected)
    expect(problems).toEqual([])
  })

  it('a closed job (410) and a removed provider (410)', async () => {
    const [closed] = await fromShards<{ title_slug: string; id: number }>(
      `SELECT title_slug, id FROM jobs WHERE valid_through < ? LIMIT 1`,
      new Date().toISOString(),
    )
    if (!closed) throw new Error('no closed job in the test catalog')
    const job = await problemsOf(`/job/${closed.title_slug}-${closed.id}`)
    expect(job).toEqual({ status: 410, problems: [] })

    const gone = await env.CONTROL.prepare('SELECT MAX(id) AS id FROM provider_directory').first<{
      id: number
    }>()
    const id = gone?.id ?? 0
    await applyAcross([aMessage('provider.removed', (m) => ((m.id = id), (m.version = 3e12)))])
    const removed = await anIsolate().settled(`/p/someone-${id}`)
    expect(removed.res.status).toBe(410)
    expect(await htmlProblems(removed.body)).toEqual([])
  })

  it('storage failing with no copy to serve (503, the retry page)', async () => {
    const failing = statementFaultsEverywhere((sql) =>
      sql.includes('FROM purge')
        ? undefined
        : { all: () => Promise.reject(new Error('D1_ERROR: storage failing on cue')) },
    )
    const { res, body } = await anIsolate().settled('/pet-care/austin-tx', {}, failing)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).not.toBeNull()
    expect(await htmlProblems(body)).toEqual([])
  })

  it('a render error (500)', async () => {
    const p = await aProvider({
      cityId: await cityId('atlanta-ga'),
      service: 'babysitters',
      createdAt: 'sometime last spring',
    })
    const { status, problems } = await problemsOf(`/p/test-p-${p.id}`)
    expect(status).toBe(500)
    expect(problems).toEqual([])
  })
})
