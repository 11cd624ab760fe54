// Debian's Chromium driven by Playwright (playwright-core: no browser download), as the e2e
// tests use it, with the flags that keep it off this machine's closed network (scripts/chromium.ts).
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'
import { CHROMIUM_FLAGS, requireChromium } from '../../scripts/chromium'
import { WIDGET_SCRIPT } from '../../scripts/turnstile-stand-in'
import { TURNSTILE_ORIGIN } from '../../src/lib/content-security-policy'

export const base = inject('baseUrl')

/** A phone, as most visitors are; headless Chromium says so in its user agent. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: false }

/** A visitor's browser: the same Chromium without "Headless" in its user agent. */
export const VISITOR_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36'

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: requireChromium(), args: CHROMIUM_FLAGS })
}

export interface Opened {
  page: Page
  /** Console errors and uncaught page errors seen so far. */
  errors: string[]
}

/** A fresh context and page on `path`, marked so a full reload can be told from a navigation. */
export async function open(
  browser: Browser,
  path: string,
  options: BrowserContextOptions & { before?: (page: Page) => Promise<unknown> } = {},
): Promise<Opened> {
  const { before, ...contextOptions } = options
  const context = await browser.newContext({ ...PHONE, ...contextOptions })
  // Turnstile's widget script is its stand-in, never the network (scripts/turnstile-stand-in.ts).
  await context.route(`${TURNSTILE_ORIGIN}/**`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: WIDGET_SCRIPT }),
  )
  const page = await context.newPage()
  const errors = errorsOf(page)
  await before?.(page)
  await page.goto(base + path)
  await markDocument(page)
  return { page, errors }
}

/** Marks the current document; `sameDocument` is false once a full load has replaced it. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(window as { __sameDocument?: boolean }).__sameDocument = true
  })
}

export function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true)
}

/**
 * A visitor's first interaction with the page (a key pressed, nothing typed): the browser script
 * loads React and the islands on it (docs/browser.md).
 */
export async function interact(page: Page): Promise<void> {
  await page.keyboard.press('Shift')
}

/**
 * Interacts, then waits until the islands have hydrated: the browser script has loaded React
 * and taken the page over.
 */
export async function hydrated(page: Page): Promise<void> {
  await interact(page)
  await page.waitForFunction(() => history.state !== null)
}

/**
 * A visitor's phone on `path`, with or without JavaScript, `before` run first (routes, init
 * scripts): the page, console errors and uncaught errors seen, and a way to close it.
 */
export async function visit(
  browser: Browser,
  path: string,
  javaScript: boolean,
  before?: (page: Page) => Promise<unknown>,
) {
  const context = await browser.newContext({
    ...PHONE,
    userAgent: VISITOR_UA,
    javaScriptEnabled: javaScript,
  })
  // Turnstile's widget script is its stand-in, never the network (scripts/turnstile-stand-in.ts).
  await context.route(`${TURNSTILE_ORIGIN}/**`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: WIDGET_SCRIPT }),
  )
  const page = await context.newPage()
  const errors = errorsOf(page)
  await before?.(page)
  await page.goto(base + path)
  return { page, errors, close: () => context.close() }
}

/** Console errors and uncaught page errors of `page`, as they come. */
function errorsOf(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

/**
 * One Chromium for a test file, launched before its tests and closed after them, and `visit`
 * bound to it: what a file of visits needs.
 */
export function visitsInOneBrowser() {
  let browser: Browser
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(() => browser.close())
  return (path: string, javaScript: boolean, before?: (page: Page) => Promise<unknown>) =>
    visit(browser, path, javaScript, before)
}
