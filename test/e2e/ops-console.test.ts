// The ops console in Chromium (its pages have no script): signed in as Access
// would sign a person in (the development key pair of test/e2e/server.ts), a purge previewed,
// confirmed and its page fetched again; bad input answered next to its field; a viewer kept from
// purging. axe finds nothing on any of its pages.
import axe from 'axe-core'
import { sign } from 'hono/utils/jwt/jwt'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { DEV_AUDIENCE, DEV_PEOPLE, DEV_TEAM_DOMAIN } from '../../scripts/access-dev'
import { base, launch, PHONE } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

function token(email: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const claims = { aud: [DEV_AUDIENCE], iss: DEV_TEAM_DOMAIN, email, iat: now, exp: now + 600 }
  return sign(claims, inject('accessPrivateJwk'), 'RS256')
}

/**
 * A browser signed in to the console as `email`. The console's pages have no script and their
 * policy allows none, so the flows run as without JavaScript; JavaScript stays on only for axe,
 * which is injected past that policy (bypassCSP).
 */
async function signedIn(email: string): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, bypassCSP: true })
  const page = await context.newPage()
  // A missing element fails the test at once, with its locator, not at the test's timeout.
  page.setDefaultTimeout(10_000)
  await page.goto(`${base}/__ops/sign-in?token=${await token(email)}`)
  return page
}

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

it('purges a page with a preview, then shows it fetched again, with no axe violation', async () => {
  const path = '/babysitters/atlanta-ga'
  // Stored: the second visit is a hit.
  await fetch(base + path).then((r) => r.text())
  await fetch(base + path).then((r) => r.text())
  const page = await signedIn(DEV_PEOPLE.purger)
  expect(page.url()).toBe(`${base}/__ops`)
  // No script: every step below is a plain form or link.
  expect(await page.locator('script').count()).toBe(0)
  expect(await violations(page)).toEqual([])

  await page.getByLabel('Purge by').selectOption('url')
  await page.getByLabel('What to purge').fill(base + path)
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.waitForURL(/\/__ops\/purges\/preview\?/)
  expect(await page.locator('h1').textContent()).toBe('Confirm the purge')
  expect(await page.locator('td code').first().textContent()).toBe(`url:${path}`)
  expect(await violations(page)).toEqual([])

  await page.getByRole('button', { name: 'Purge now' }).click()
  await page.waitForURL(/\/__ops\/purges\/\d+$/)
  expect(await page.locator('h1').textContent()).toBe('Purge made')
  expect(await page.getByRole('status').textContent()).toContain(DEV_PEOPLE.purger)
  expect(await violations(page)).toEqual([])

  await page.getByRole('link', { name: 'Fetch the page again' }).click()
  await page.waitForURL(/\/__ops\/check\?/)
  expect(await page.locator('h1').textContent()).toBe('Page fetched again')
  const cache = await page.locator('dt:text("x-cache") + dd').textContent()
  expect(cache).not.toBe('HIT')
  expect(await page.locator('dt:text("Answered in") + dd').textContent()).toMatch(/^\d+ ms$/)
  expect(await violations(page)).toEqual([])

  await page.getByRole('link', { name: 'Recent purges' }).click()
  await page.waitForURL(/\/__ops\/purges$/)
  await page.getByLabel('Person or token').fill(DEV_PEOPLE.purger)
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.waitForURL(/\/__ops\/purges\?who=/)
  expect(await page.locator('tbody').textContent()).toContain(path)
  expect(await violations(page)).toEqual([])
  await page.context().close()
})

it('answers a URL of another site next to the field, and keeps a viewer from purging', async () => {
  const page = await signedIn(DEV_PEOPLE.purger)
  await page.getByLabel('What to purge').fill('https://evil.example/nannies')
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.waitForURL(/\/__ops\/purges\/preview\?/)
  expect(await page.locator('#purge-value-error').textContent()).toContain('not a URL of this site')
  expect(await page.getByLabel('What to purge').inputValue()).toBe('https://evil.example/nannies')
  expect(await violations(page)).toEqual([])
  await page.context().close()

  const viewer = await signedIn(DEV_PEOPLE.viewer)
  expect(await viewer.locator('.warning').textContent()).toContain('purging needs the purger role')
  expect(await viewer.getByRole('button', { name: 'Preview' }).count()).toBe(0)
  await viewer.context().close()
})
