// Client navigation between listing states (docs/browser.md), in Debian's Chromium against the
// real `wrangler dev`.
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base, hydrated, launch, open, sameDocument } from './browser'

const LISTING = '/babysitters/atlanta-ga'
/** How long a data answer may take before the page loads in full (src/client/router.ts). */
const ROUTE_TIMEOUT_MS = 3_800
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

const heading = (page: Page) => page.locator('h1').textContent()
const summary = (page: Page) => page.locator('.results-head span').first().textContent()
const dataRequests = (page: Page) => {
  const seen: Request[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/_data/')) seen.push(r)
  })
  return seen
}

describe('listing navigation', () => {
  it('hydrates the cards from their markup, keeping every node, then renders new ones', async () => {
    const { page, errors } = await open(browser, LISTING, {
      // Records each card the document loses from its first parse on: a hydration that did not
      // match would render the results again, and remove them.
      before: (p) =>
        p.addInitScript(() => {
          const w = window as { __removedCards?: number }
          w.__removedCards = 0
          new MutationObserver((records) => {
            for (const r of records)
              for (const node of r.removedNodes)
                if (node instanceof HTMLElement && node.matches('li.card'))
                  w.__removedCards = (w.__removedCards ?? 0) + 1
          }).observe(document, { childList: true, subtree: true })
        }),
    })
    await hydrated(page)
    const removed = () =>
      page.evaluate(() => (window as { __removedCards?: number }).__removedCards)
    const cards = await page.locator('.cards > li.card').count()
    expect(cards).toBeGreaterThan(0)
    expect(await page.locator('#listing-state').textContent()).toContain('"cards":[]')
    const first = await page.locator('.cards > li.card h3').allTextContents()
    expect(await removed()).toBe(0)
    await page.locator('.pagination a[rel="next"]').click()
    await expect.poll(() => heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
    expect(await removed()).toBe(cards)
    await page.goBack()
    await expect.poll(() => page.locator('.cards > li.card h3').allTextContents()).toEqual(first)
    expect(await sameDocument(page)).toBe(true)
    expect(errors).toEqual([])
  })

  it('applies a filter change to the results and the URL without a full reload', async () => {
    const { page, errors } = await open(browser, LISTING)
    await hydrated(page)
    const before = await summary(page)
    await page.locator('summary', { hasText: 'Filters' }).click()
    await page.locator('select[name="experience"]').selectOption('10')
    await page.waitForURL(/experience=10/)
    await expect.poll(() => summary(page)).not.toBe(before)
    expect(await page.locator('.lede').first().textContent()).toContain('match your filters')
    expect(await page.title()).toContain('Babysitters in Atlanta, GA')
    expect(await sameDocument(page)).toBe(true)
    // What the page shows is what the server renders for that URL.
    const fresh = await browser.newPage()
    await fresh.goto(page.url())
    expect(await summary(fresh)).toBe(await summary(page))
    await fresh.close()
    expect(errors).toEqual([])
  })

  it('goes back to the previous results with the back button', async () => {
    const { page } = await open(browser, LISTING)
    await hydrated(page)
    const first = await summary(page)
    await page.locator('.pagination a[rel="next"]').click()
    await page.waitForURL(/page=2/)
    await expect.poll(() => heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
    await page.goBack()
    await page.waitForURL(`${base}${LISTING}`)
    await expect.poll(() => heading(page)).toBe('Babysitters in Atlanta, GA')
    expect(await summary(page)).toBe(first)
    await page.goForward()
    await expect.poll(() => heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
    expect(await sameDocument(page)).toBe(true)
  })

  it('prefetches a hovered link with the prefetch purpose', async () => {
    const { page } = await open(browser, `${LISTING}?experience=5`)
    const requests = dataRequests(page)
    await hydrated(page)
    await page.locator('summary', { hasText: 'Filters' }).click()
    await page.locator('a', { hasText: 'Clear filters' }).hover()
    const hovered = `${base}/_data${LISTING}`
    await expect.poll(() => requests.map((r) => r.url())).toContain(hovered)
    expect(requests.find((r) => r.url() === hovered)?.headers()['purpose']).toBe('prefetch')
  })

  it('prefetches the page links in view, and navigates with what it fetched', async () => {
    const { page } = await open(browser, LISTING)
    const requests = dataRequests(page)
    await hydrated(page)
    const link = page.locator('.pagination a[aria-label="Page 2"]')
    await link.hover()
    await expect
      .poll(() => requests.filter((r) => r.url().includes('page=2')).length)
      .toBeGreaterThan(0)
    const prefetch = requests.find((r) => r.url().includes('page=2'))
    expect(prefetch?.headers()['purpose']).toBe('prefetch')
    expect(prefetch?.headers()['x-data-request']).toBe('1')
    await link.click()
    await page.waitForURL(/page=2/)
    await expect.poll(() => heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
    expect(requests.filter((r) => r.url().includes('page=2'))).toHaveLength(1)
  })

  it('lets a newer navigation cancel an older one', async () => {
    // Page 2's answer is held until the newer navigation has finished, then let through.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const { page } = await open(browser, LISTING, {
      before: async (p) => {
        await p.clock.install()
        await p.route('**/_data/**page=2*', async (route) => {
          await held
          await route.continue().catch(() => undefined)
        })
      },
    })
    await hydrated(page)
    const pageTwo = (r: Request) => r.url().includes('page=2')
    const answered = Promise.race([
      page.waitForEvent('requestfinished', pageTwo),
      page.waitForEvent('requestfailed', pageTwo),
    ])
    await page.locator('.pagination a[aria-label="Page 2"]').click()
    // Before page 2 arrives, a filter asks for another state.
    await page.locator('summary', { hasText: 'Filters' }).click()
    await page.locator('select[name="experience"]').selectOption('3')
    await page.waitForURL(/experience=3/)
    await expect
      .poll(() => page.locator('.lede').first().textContent())
      .toContain('match your filters')
    // Page 2's answer now arrives (or its request was aborted), and the page's timers run past
    // the older navigation's fallback to a full load: neither may take the page to page 2.
    release()
    await answered
    await page.clock.runFor(ROUTE_TIMEOUT_MS + 1)
    expect(page.url()).not.toContain('page=2')
    expect(page.url()).toContain('experience=3')
    expect(await heading(page)).toBe('Babysitters in Atlanta, GA')
    expect(await page.locator('.lede').first().textContent()).toContain('match your filters')
    expect(await sameDocument(page)).toBe(true)
  })
})

describe('falling back to a full page load', () => {
  it('when the data answer takes longer than 3.8 s: at 3.8 s, not a millisecond before', async () => {
    const { page } = await open(browser, LISTING, {
      before: async (p) => {
        await p.clock.install()
        // The data answer never comes.
        await p.route('**/_data/**', () => undefined)
      },
    })
    await hydrated(page)
    // From here the page's timers move only when the test moves its clock.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000))
    await page.evaluate(() =>
      addEventListener('beforeunload', () => Object.assign(window, { __leaving: true })),
    )
    // A full load has begun (beforeunload runs as it starts), is replacing the document (which
    // ends the evaluation) or has replaced it.
    const fellBack = () =>
      page
        .evaluate(() => {
          const w = window as { __leaving?: boolean; __sameDocument?: boolean }
          return w.__leaving === true || w.__sameDocument !== true
        })
        .catch((error: unknown) => {
          if (String(error).includes('Execution context was destroyed')) return true
          throw error
        })
    await page.locator('.pagination a[rel="next"]').click()
    await page.clock.runFor(ROUTE_TIMEOUT_MS - 1)
    expect(await fellBack(), 'fell back before 3.8 s').toBe(false)
    await page.clock.runFor(1)
    expect(await fellBack()).toBe(true)
    await expect.poll(() => sameDocument(page)).toBe(false)
    expect(await heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
  })

  it('when the network fails', async () => {
    const { page } = await open(browser, LISTING, {
      before: (p) => p.route('**/_data/**', (route) => route.abort('internetdisconnected')),
    })
    await hydrated(page)
    await page.locator('.pagination a[rel="next"]').click()
    await expect.poll(() => sameDocument(page)).toBe(false)
    expect(page.url()).toMatch(/page=2$/)
    expect(await heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
  })

  it('when the data answer is 404 {"notFound": true}: the 404 page', async () => {
    const { page } = await open(browser, LISTING)
    await hydrated(page)
    // A link to a page past the last, as a listing that shrank since it was loaded would have.
    await page.evaluate(() => {
      const link = document.createElement('a')
      link.href = '/babysitters/atlanta-ga?page=40'
      link.textContent = 'Page 40'
      document.querySelector('[data-island="results"]')?.appendChild(link)
    })
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/babysitters/atlanta-ga?page=40')),
      page.locator('a', { hasText: 'Page 40' }).click(),
    ])
    expect(response.status()).toBe(404)
    await expect.poll(() => heading(page)).toBe('404: This page could not be found')
  })

  it('when the script fails to load: links and filters work as plain HTML', async () => {
    const { page } = await open(browser, LISTING, {
      before: (p) => p.route('**/assets/client.*.js', (route) => route.abort()),
    })
    await page.locator('.pagination a[rel="next"]').click()
    await page.waitForURL(/page=2/)
    expect(await heading(page)).toBe('Babysitters in Atlanta, GA (page 2)')
    expect(await sameDocument(page)).toBe(false)
    await page.locator('summary', { hasText: 'Filters' }).click()
    await page.locator('select[name="experience"]').selectOption('5')
    await page.locator('button', { hasText: 'Show results' }).click()
    await page.waitForURL(/experience=5/)
    expect(await page.locator('.lede').first().textContent()).toContain('match your filters')
  })
})

describe('the buying-intent island', () => {
  it('saves the choice in place, where the flow would have returned the visitor', async () => {
    const { page, errors } = await open(browser, LISTING)
    await hydrated(page)
    await page.locator('input[name="intent"][value="withInWeek"]').check()
    await expect
      .poll(() => page.locator('.intent [role="status"]').textContent())
      .toContain('Thanks, noted: Within a week.')
    const csc = (await page.context().cookies()).find((c) => c.name === 'csc')
    expect(decodeURIComponent(csc?.value ?? '')).toBe('s=babysitters&i=withInWeek')
    // The flow's last step returns where the visitor came from: this page, so no link onward.
    expect(await page.locator('.intent a.cta').count()).toBe(0)
    expect(page.url()).toBe(base + LISTING)
    expect(await sameDocument(page)).toBe(true)
    expect(errors).toEqual([])
  })

  it('without the script, goes through the flow page and back to the listing', async () => {
    const { page } = await open(browser, LISTING, {
      before: (p) => p.route('**/assets/client.*.js', (route) => route.abort()),
    })
    await page.locator('input[name="intent"][value="rightNow"]').check()
    await page.locator('.intent button[type="submit"]').click()
    await page.waitForURL(base + LISTING)
    const csc = (await page.context().cookies()).find((c) => c.name === 'csc')
    expect(decodeURIComponent(csc?.value ?? '')).toBe('s=babysitters&i=rightNow')
  })
})
