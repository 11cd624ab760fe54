// Every page type in Chromium: nothing in the console, and no accessibility violation that
// axe-core can find (WCAG 2.1 A and AA, and best practices).
import axe from 'axe-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { base, hydrated, launch, open } from './browser'

let browser: Browser
const pages: [string, string][] = [
  ['national', '/babysitters'],
  ['state', '/babysitters/ga'],
  ['directory', '/babysitters/atlanta-ga'],
  ['job listing', '/babysitting-jobs/atlanta-ga'],
  ['city hub', '/local/atlanta-ga'],
  ['cost guide (national)', '/cost/babysitters'],
  ['cost guide (city)', '/cost/babysitters/atlanta-ga'],
  ['activities', '/explore/d/robotics'],
  ['segment', '/adult-care'],
  ['visitor flow', '/us-subscription/segment/nonmember/babysitters'],
  ['who needs care', '/us-subscription/segment/nonmember/in-facility/who-needs-care'],
  ['not found', '/babysitters/atlantis-zz'],
  ['bad request', '/babysitters/atlanta-ga?distance=7'],
]

beforeAll(async () => {
  browser = await launch()
  // Profiles and jobs: the first of each the listings link to.
  const directory = await (await fetch(`${base}/babysitters/atlanta-ga`)).text()
  const jobs = await (await fetch(`${base}/babysitting-jobs/atlanta-ga`)).text()
  pages.push(['provider profile', /href="(\/p\/[^"]+)"/.exec(directory)?.[1] ?? '/p/missing'])
  pages.push(['job detail', /href="(\/job\/[^"]+)"/.exec(jobs)?.[1] ?? '/job/missing'])
})
afterAll(() => browser.close())

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source)
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    }),
  )
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  )
}

it('renders every page type with no console error and no axe violation', async () => {
  for (const [type, path] of pages) {
    const { page, errors } = await open(browser, path)
    if (await page.locator('[data-island]').count()) await hydrated(page)
    expect({ type, errors, violations: await violations(page) }).toEqual({
      type,
      errors: path.includes('atlantis') || path.includes('distance=7') ? errors : [],
      violations: [],
    })
    await page.context().close()
  }
})

it('stays accessible after a client navigation', async () => {
  const { page, errors } = await open(browser, '/babysitters/atlanta-ga')
  await hydrated(page)
  await page.locator('.pagination a[rel="next"]').click()
  await expect.poll(() => page.locator('h1').textContent()).toContain('(page 2)')
  expect(await violations(page)).toEqual([])
  expect(errors).toEqual([])
})

it('hydrates each island without changing what the server rendered', async () => {
  for (const path of [
    '/babysitters/atlanta-ga',
    '/babysitting-jobs/atlanta-ga',
    '/explore/d/art',
  ]) {
    const islands = (page: Page) =>
      page.$$eval('[data-island]', (roots) => roots.map((r) => r.innerHTML))
    const plain = await open(browser, path, {
      before: (p) => p.route('**/assets/client.*.js', (route) => route.abort()),
    })
    const hydratedPage = await open(browser, path)
    await hydrated(hydratedPage.page)
    await hydratedPage.page.waitForTimeout(200)
    expect(await islands(hydratedPage.page)).toEqual(await islands(plain.page))
    await plain.page.context().close()
    await hydratedPage.page.context().close()
  }
})
