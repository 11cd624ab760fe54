// An uncaught error of the browser script (docs/browser.md): the page says so, and the error is
// reported straight to the browser DSN (the capture server) under the server's rules.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { hydrated, launch, open, VISITOR_UA } from './browser'

const capture = inject('sentryOrigin')
const LISTING = '/nannies/atlanta-ga'
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

/** Answers every data request with a state the islands cannot render: no cards at all. */
async function breakTheData(page: Page): Promise<void> {
  await page.route('**/_data/**', async (route) => {
    const res = await route.fetch()
    const state = (await res.json()) as { results: Record<string, unknown> }
    state.results.cards = null
    await route.fulfill({ response: res, json: state })
  })
}

async function eventsFor(marker: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${capture}/envelopes`)
  const envelopes = (await res.json()) as { body: string }[]
  return envelopes
    .map((e) => e.body.split('\n'))
    .filter(([, item]) => item === '{"type":"event"}')
    .map(([, , payload]) => JSON.parse(payload ?? '{}') as Record<string, unknown>)
    .filter((event) => JSON.stringify(event.request).includes(marker))
}

/**
 * Lists in the page every envelope its script starts to the capture server, as it starts it, by
 * its item's type: `event` (an error report) or `transaction` (a sampled page-load trace).
 */
async function recordReports(page: Page): Promise<void> {
  await page.addInitScript((origin) => {
    const started: string[] = []
    const send = window.fetch.bind(window)
    Object.assign(window, { __reports: started })
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url.startsWith(origin)) {
        const item = typeof init?.body === 'string' ? init.body.split('\n')[1] : undefined
        started.push((JSON.parse(item ?? '{}') as { type?: string }).type ?? 'unknown')
      }
      return send(input, init)
    }
  }, capture)
}

/** What the page started to the capture server, but the page-load trace a share of loads send. */
async function startedReports(page: Page): Promise<string[] | undefined> {
  const started = await page.evaluate(() => (window as { __reports?: string[] }).__reports)
  // The trace is sampled (traceSampleRates.client): sent or not at random, and no error report.
  return started?.filter((type) => type !== 'transaction')
}

it('shows "Application error" and reports the error once, with nothing about the visitor', async () => {
  const { page } = await open(browser, `${LISTING}?utm_source=mail&email=a@b.example`, {
    userAgent: VISITOR_UA,
    before: async (p) => {
      await recordReports(p)
      await breakTheData(p)
    },
  })
  await hydrated(page)
  await page.locator('summary', { hasText: 'Filters' }).click()
  await page.locator('select[name="experience"]').selectOption('3')
  await expect
    .poll(() => page.locator('h1').textContent())
    .toBe('Application error: a client-side exception has occurred')
  expect(await startedReports(page)).toEqual(['event'])
  await expect.poll(() => eventsFor('/nannies/atlanta-ga')).toHaveLength(1)
  const [event] = await eventsFor('/nannies/atlanta-ga')
  expect(event).toMatchObject({
    level: 'error',
    platform: 'javascript',
    environment: 'e2e',
    tags: { pageType: 'seoSearchListing' },
  })
  const text = JSON.stringify(event)
  expect(text).toMatch(/"type":"TypeError"/)
  expect(text).toContain('navigate /nannies/atlanta-ga?')
  expect(text).not.toContain('a@b.example')
  expect(text).not.toMatch(/care_did|n_vis|cookie/i)
})

it('sends nothing from a headless browser, though the page says the same', async () => {
  const { page } = await open(browser, '/tutors/atlanta-ga', {
    before: async (p) => {
      await recordReports(p)
      await breakTheData(p)
    },
  })
  await hydrated(page)
  await page.locator('summary', { hasText: 'Filters' }).click()
  await page.locator('select[name="experience"]').selectOption('3')
  await expect
    .poll(() => page.locator('h1').textContent())
    .toBe('Application error: a client-side exception has occurred')
  // The report is made or dropped before the page says so (src/client/app-error.tsx): by now
  // a report would have been started, so nothing is left to wait for.
  expect(await page.evaluate(() => (window as { __reports?: string[] }).__reports)).toEqual([])
  expect(await eventsFor('/tutors/atlanta-ga')).toEqual([])
})
