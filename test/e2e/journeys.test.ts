// The visitor journeys end to end, in Debian's Chromium against the real `wrangler dev`, each
// with JavaScript and without: the buying intent that returns where the visitor was, the provider
// entry of people who want work, the adult care enrollment rollout that asks each step once, and
// the guest message form. Flags are on for one device only (test/e2e/server.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base, hydrated, launch, PHONE, VISITOR_UA } from './browser'
import { E2E_FLAGGED_DEVICE } from './server'

const FLOW = '/us-subscription/segment/nonmember'
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

interface Visit {
  context: BrowserContext
  page: Page
  /** Every document the page loaded, as paths with their query. */
  documents: string[]
  errors: string[]
}

/** A visitor on `path`, with or without JavaScript, optionally the device the flags are on for. */
async function visit(
  path: string,
  options: { javaScript: boolean; flagged?: boolean },
): Promise<Visit> {
  // A person's browser: a crawler's (headless Chromium says so) never gets a device override.
  const context = await browser.newContext({
    ...PHONE,
    userAgent: VISITOR_UA,
    javaScriptEnabled: options.javaScript,
  })
  if (options.flagged) {
    await context.addCookies([{ name: 'care_did', value: E2E_FLAGGED_DEVICE, url: base }])
  }
  const page = await context.newPage()
  const documents: string[] = []
  const errors: string[] = []
  page.on('request', (r) => {
    if (r.isNavigationRequest()) documents.push(r.url().replace(base, ''))
  })
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(base + path)
  return { context, page, documents, errors }
}

async function csc(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies(base)).find((c) => c.name === 'csc')
  return decodeURIComponent(cookie?.value ?? '')
}

const pathOf = (page: Page) => page.url().replace(base, '')

describe.each([
  ['with JavaScript', true],
  ['without JavaScript', false],
])('%s', (_, javaScript) => {
  it('the buying intent asked on a city directory ends back on that directory', async () => {
    const { context, page, errors } = await visit('/babysitters/atlanta-ga', { javaScript })
    if (javaScript) await hydrated(page)
    const island = page.locator('form.intent')
    await island.getByLabel('Within a week').check()
    // With JavaScript, choosing is enough: the island saves the answer at once.
    if (!javaScript) await island.getByRole('button', { name: 'Continue' }).click()
    if (javaScript) {
      // Saved in place: the visitor is already where the flow would return.
      await expect.poll(() => island.locator('[role="status"]').textContent()).toContain('noted')
      expect(await island.locator('a', { hasText: 'Continue' }).count()).toBe(0)
    } else {
      await page.waitForURL(`${base}/babysitters/atlanta-ga`)
    }
    expect(pathOf(page)).toBe('/babysitters/atlanta-ga')
    await expect.poll(() => csc(context)).toBe('s=babysitters&i=withInWeek')
    expect(errors).toEqual([])
    await context.close()
  })

  it('"Apply now" leads to the provider entry and back to the job', async () => {
    const { context, page } = await visit('/babysitting-jobs/atlanta-ga', { javaScript })
    const job =
      (await page.locator('.cards li a[href^="/job/"]').first().getAttribute('href')) ?? ''
    await page.goto(base + job)
    await page.getByRole('link', { name: 'Apply now' }).click()
    await page.waitForURL(/\/provider\?/)
    expect(await page.locator('h1').textContent()).toBe('What work are you looking for?')
    expect(await page.content()).not.toContain('When do you need care?')
    expect(await page.getByLabel('Babysitting jobs').isChecked()).toBe(true)
    await page.getByLabel('Right away').check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(base + job)
    await expect.poll(() => csc(context)).toBe('r=provider&s=babysitting-jobs&i=rightNow')
    await context.close()
  })

  it('"List your activities" on a camps page asks about work, then returns to the page', async () => {
    const { context, page } = await visit('/explore/d/music', { javaScript, flagged: true })
    await page.getByRole('link', { name: 'List your activities' }).click()
    await page.waitForURL(/\/provider\?/)
    expect(await page.content()).not.toContain('When do you need care?')
    await page.getByLabel('Tutoring jobs').check()
    await page.getByLabel('In 1-2 months').check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${base}/explore/d/music`)
    expect(await csc(context)).toBe('r=provider&s=tutoring-jobs&i=withInMonth')
    await context.close()
  })

  it('the adult care enrollment rollout asks each question once and returns to the page', async () => {
    const { context, page, documents } = await visit('/adult-care', { javaScript, flagged: true })
    await page.locator('a.cta').first().click()
    await page.waitForURL(/who-needs-care/)
    await page.getByLabel('In 1-2 months').check()
    await page.getByLabel('My parent').check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${base}/adult-care`)
    expect(await csc(context)).toBe('s=adult-care&i=withInMonth&w=parent')
    // Never sent back to step 1.
    expect(documents.filter((d) => d.startsWith(`${FLOW}/adult-care`))).toEqual([])
    await context.close()
  })

  it('a profile’s message form keeps what was typed through a mistake, then sends', async () => {
    const listing = await visit('/nannies/atlanta-ga', { javaScript, flagged: true })
    const { context, page } = listing
    const profile = (await page.locator('.card h3 a').first().getAttribute('href')) ?? ''
    await page.goto(base + profile)
    const form = page.locator('form.message-form')
    await form.getByLabel('Your name').fill('Robin Park')
    await form.getByLabel('Your email').fill('robin@example.com')
    await form.getByLabel(/Your message to/).fill('Hi')
    // Long enough for the browser's own check (required), too short for the server's.
    await form.getByRole('button', { name: 'Send message' }).click()
    await page.waitForURL(`${base}${profile}/message`)
    expect(await page.locator('.field-error').textContent()).toContain('at least 10 characters')
    expect(await page.getByLabel('Your name').inputValue()).toBe('Robin Park')
    expect(await page.getByLabel('Your email').inputValue()).toBe('robin@example.com')
    await page.getByLabel(/Your message to/).fill('Hi, are you free on Tuesday mornings?')
    await page.getByRole('button', { name: 'Send message' }).click()
    await page.waitForURL(`${base}${profile}/message/sent`)
    expect(await page.locator('h1').textContent()).toBe('Message sent')
    expect(await page.content()).not.toContain('Tuesday mornings')
    await context.close()
    // Flag off for everyone else: no form.
    const other = await visit(profile, { javaScript })
    expect(await other.page.locator('form.message-form').count()).toBe(0)
    await other.context.close()
  })
})
