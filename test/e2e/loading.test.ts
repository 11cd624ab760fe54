// When the browser script loads React (docs/browser.md): not while the page loads, but on the
// visitor's first interaction; and what the visitor did before it arrived is not lost.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hydrated, launch, open, sameDocument } from './browser'

const LISTING = '/babysitters/atlanta-ga'
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

/** Lists the requests for React's file; each is answered once `answered` resolves. */
function reactRequests(page: Page, answered: Promise<void> = Promise.resolve()): Promise<string[]> {
  const seen: string[] = []
  return page
    .route('**/assets/react.*.js', async (route) => {
      seen.push(route.request().url())
      await answered
      await route.continue()
    })
    .then(() => seen)
}

/** A response held until the test releases it. */
function aHold(): { held: Promise<void>; release: () => void } {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  return { held, release }
}

describe('React', () => {
  it('is neither downloaded nor run while nobody uses the page, and is on the first key', async () => {
    let seen: string[] = []
    const { page, errors } = await open(browser, LISTING, {
      before: async (p) => {
        await p.clock.install()
        seen = await reactRequests(p)
      },
    })
    await page.waitForLoadState('load')
    // A minute of the page's time with nobody using it: every timer and idle callback the
    // script set has run, and none asked for React.
    await page.clock.runFor(60_000)
    // A request the page starts after that minute, seen once answered: one the minute started
    // would have been seen first.
    await page.evaluate(() => fetch('/robots.txt').then((res) => res.text()))
    expect(seen).toEqual([])
    expect(await page.evaluate(() => history.state as unknown)).toBeNull()
    await hydrated(page)
    expect(seen).toHaveLength(1)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('suggests places for what was typed on the first focus, before React arrived', async () => {
    let seen: string[] = []
    const react = aHold()
    const { page, errors } = await open(browser, '/', {
      before: async (p) => (seen = await reactRequests(p, react.held)),
    })
    // Focused and typed at once: the focus starts React's download, the letters come before it.
    await page.getByLabel('City or ZIP code').pressSequentially('Atla')
    expect(await page.locator('[data-search] [role="combobox"]').count()).toBe(0)
    react.release()
    const list = page.getByRole('listbox', { name: 'Places' })
    await list.waitFor()
    expect(seen).toHaveLength(1)
    const place = page.getByRole('combobox', { name: 'City or ZIP code' })
    expect(await place.inputValue()).toBe('Atla')
    expect(await place.getAttribute('aria-expanded')).toBe('true')
    expect(await list.getByRole('option').first().textContent()).toBe('Atlanta, GA')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('applies a filter chosen before React arrived in place, once it has', async () => {
    const react = aHold()
    const { page, errors } = await open(browser, LISTING, {
      before: (p) => reactRequests(p, react.held),
    })
    await page.locator('summary', { hasText: 'Filters' }).click()
    await page.locator('select[name="experience"]').selectOption('10')
    expect(await page.evaluate(() => history.state as unknown)).toBeNull()
    react.release()
    await page.waitForURL(/experience=10/)
    await expect
      .poll(() => page.locator('.lede').first().textContent())
      .toContain('match your filters')
    expect(await sameDocument(page)).toBe(true)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
