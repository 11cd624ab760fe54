// What the pages look like at a phone's (412×915) and a desktop's (1366×900) size, and the filter
// panel's chips, in Debian's Chromium against the real `wrangler dev`.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base, hydrated, launch, open, sameDocument } from './browser'

const PHONE = { viewport: { width: 412, height: 915 }, isMobile: true }
const DESKTOP = { viewport: { width: 1366, height: 900 }, isMobile: false }
const LISTING = '/babysitters/atlanta-ga'
let browser: Browser
let profile = '/p/missing'
let job = '/job/missing'

beforeAll(async () => {
  browser = await launch()
  const directory = await (await fetch(`${base}${LISTING}`)).text()
  const jobs = await (await fetch(`${base}/babysitting-jobs/atlanta-ga`)).text()
  profile = /href="(\/p\/[^"]+)"/.exec(directory)?.[1] ?? profile
  job = /href="(\/job\/[^"]+)"/.exec(jobs)?.[1] ?? job
})
afterAll(() => browser.close())

/** Where an element is on the screen, failing when it is not rendered at all. */
async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox()
  if (!found) throw new Error(`${selector} is not rendered`)
  return found
}

describe('on a phone', () => {
  it('fits the header on one line, and no page scrolls sideways', async () => {
    for (const path of ['/babysitters', LISTING, profile]) {
      const { page } = await open(browser, path, PHONE)
      // Lines of links: a link that starts below the bottom of the line so far starts a new one
      // (the logo and the services differ in size, so their tops differ within one line).
      const lines = await page.$$eval('.site-header a', (links) => {
        const boxes = links.map((a) => a.getBoundingClientRect()).sort((a, b) => a.top - b.top)
        let count = 0
        let bottom = -Infinity
        for (const b of boxes) {
          if (b.top >= bottom) count++
          bottom = Math.max(bottom, b.bottom)
        }
        return count
      })
      expect({ path, lines }).toEqual({ path, lines: 1 })
      expect((await box(page, '.site-header')).height).toBeLessThan(64)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        412,
      )
      await page.context().close()
    }
  })

  it('shows the job\'s "Apply now" and the profile\'s "Contact" on the first screen', async () => {
    for (const [path, label] of [
      [job, 'Apply now'],
      [profile, 'Contact'],
    ] as const) {
      const { page } = await open(browser, path, PHONE)
      const cta = await box(page, '.detail-action .cta')
      expect(await page.locator('.detail-action .cta').textContent()).toContain(label)
      expect(cta.y + cta.height).toBeLessThanOrEqual(915)
      await page.context().close()
    }
  })
})

describe('on a desktop', () => {
  it('puts the filters, open, beside the results', async () => {
    const { page } = await open(browser, LISTING, DESKTOP)
    await hydrated(page)
    const filters = await box(page, '.filter-panel')
    const results = await box(page, '.results')
    expect(filters.x + filters.width).toBeLessThan(results.x)
    expect(Math.abs(filters.y - results.y)).toBeLessThan(40)
    expect(await page.locator('select[name="distance"]').isVisible()).toBe(true)
    expect(await page.locator('details.filters').getAttribute('open')).toBe('')
    await page.context().close()
  })

  it('keeps the call to action of a profile and a job in view as the page scrolls', async () => {
    for (const path of [profile, job]) {
      const { page } = await open(browser, path, DESKTOP)
      const main = await box(page, 'main')
      const cta = await box(page, '.detail-action')
      expect(cta.x).toBeGreaterThan(main.x + main.width / 2)
      // Scrolling is instant (no smooth scrolling), and the boxes are read from the layout
      // after it: nothing to wait for.
      const { y, most } = await page.evaluate(() => {
        scrollTo(0, 600)
        return { y: scrollY, most: document.documentElement.scrollHeight - innerHeight }
      })
      expect(most).toBeGreaterThan(300)
      expect(y).toBe(Math.min(600, most))
      const scrolled = await box(page, '.detail-action .cta')
      expect({ path, top: scrolled.y >= 0, bottom: scrolled.y + scrolled.height <= 900 }).toEqual({
        path,
        top: true,
        bottom: true,
      })
      await page.context().close()
    }
  })

  it("draws the cost guide's chart labels no larger than the body text", async () => {
    const { page } = await open(browser, '/cost/babysitters/atlanta-ga', DESKTOP)
    const sizes = await page.$$eval('.chart svg', (charts: SVGSVGElement[]) =>
      charts.map((svg) => {
        const scale = svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width || 1)
        return scale * parseFloat(getComputedStyle(svg).fontSize)
      }),
    )
    const body = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize))
    expect(sizes.length).toBeGreaterThan(0)
    for (const size of sizes) expect(size).toBeLessThanOrEqual(body)
    await page.context().close()
  })
})

describe('the filter chips', () => {
  const filtered = `${LISTING}?distance=5&experience=3`
  const chip = (page: Page, label: string) =>
    page.getByRole('link', { name: `Remove filter: ${label}`, exact: true })

  it('remove their filter with a plain link when the script does not run', async () => {
    const { page } = await open(browser, filtered, {
      before: (p) => p.route('**/assets/client.*.js', (route) => route.abort()),
    })
    await chip(page, 'Within 5 miles').click()
    await page.waitForURL(`${base}${LISTING}?experience=3`)
    expect(await sameDocument(page)).toBe(false)
    expect(await chip(page, 'Within 5 miles').count()).toBe(0)
    expect(await chip(page, '3+ years').count()).toBe(1)
    await page.context().close()
  })

  it('remove their filter in place when it does, and show the new choices', async () => {
    const { page, errors } = await open(browser, filtered)
    await hydrated(page)
    await chip(page, '3+ years').click()
    await page.waitForURL(`${base}${LISTING}?distance=5`)
    await expect.poll(() => chip(page, '3+ years').count()).toBe(0)
    expect(await chip(page, 'Within 5 miles').count()).toBe(1)
    expect(await page.locator('summary').first().textContent()).toBe('Filters (1)')
    expect(await sameDocument(page)).toBe(true)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
