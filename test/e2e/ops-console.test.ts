// The ops console in Chromium: signed in as Access would sign a person in (the development key
// pair of test/e2e/server.ts), a purge previewed, confirmed and its page fetched again, with
// JavaScript and without; bad input answered next to its field; a viewer kept from purging; a
// flag changed and its effect on a page; a dead letter replayed and its job served; the islands
// (the purge previewed as it is typed, the health page's counts kept current) under the
// console's own policy. axe finds nothing on any of its pages.
import { sign } from 'hono/utils/jwt/jwt'
import type { Browser, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { slugOf } from '../../src/catalog/options'
import { jobPath } from '../../src/urls/paths'
import { DEV_AUDIENCE, DEV_PEOPLE, DEV_TEAM_DOMAIN } from '../../scripts/access-dev'
import { violations } from './axe'
import { base, launch, PHONE } from './browser'
import { E2E_SYNC_TOKEN } from './server'

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
 * A browser signed in to the console as `email`. axe is injected past the console's policy
 * (bypassCSP) unless `context` says otherwise (the islands' test keeps the policy, and the test
 * without JavaScript turns it off).
 */
async function signedIn(
  email: string,
  device: object = PHONE,
  context: BrowserContextOptions = { bypassCSP: true },
): Promise<Page> {
  const page = await (await browser.newContext({ ...device, ...context })).newPage()
  // A missing element fails the test at once, with its locator, not at the test's timeout.
  page.setDefaultTimeout(10_000)
  await page.goto(`${base}/__ops/sign-in?token=${await token(email)}`)
  return page
}

it('purges a page with a preview, then shows it fetched again, with no axe violation', async () => {
  const path = '/babysitters/atlanta-ga'
  // Stored: the second visit is a hit.
  await fetch(base + path).then((r) => r.text())
  await fetch(base + path).then((r) => r.text())
  const page = await signedIn(DEV_PEOPLE.purger)
  expect(page.url()).toBe(`${base}/__ops`)
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

it('purges without JavaScript: the form, its preview page and the confirmation', async () => {
  const page = await signedIn(DEV_PEOPLE.purger, PHONE, { javaScriptEnabled: false })
  await page.getByLabel('Purge by').selectOption('city')
  await page.getByLabel('What to purge').fill('atlanta-ga')
  // No island without JavaScript: the preview is the next page's.
  expect(await page.locator('#purge-live').textContent()).toBe('')
  await page.getByRole('button', { name: 'Preview' }).click()
  await page.waitForURL(/\/__ops\/purges\/preview\?/)
  expect(await page.locator('td code').allTextContents()).toEqual(['city:atlanta-ga'])
  await page.getByRole('button', { name: 'Purge now' }).click()
  await page.waitForURL(/\/__ops\/purges\/\d+$/)
  expect(await page.locator('h1').textContent()).toBe('Purge made')
  await page.context().close()
})

it('previews a purge as it is typed and keeps the health counts current, under its policy', async () => {
  const page = await signedIn(DEV_PEOPLE.purger, DESKTOP, {})
  // Anything the policy blocks, or the script throws, is said in the console; but for the 400
  // of the refused value below, which Chromium itself logs as a failed load.
  const problems: string[] = []
  const said = (m: ConsoleMessage) => m.type() === 'error' && !/status of 400/.test(m.text())
  page.on('console', (m) => void (said(m) && problems.push(m.text())))
  page.on('pageerror', (e) => problems.push(String(e)))
  const live = page.locator('#purge-live')
  await page.getByLabel('Purge by').selectOption('city')
  await page.getByLabel('What to purge').pressSequentially('atlanta-ga')
  await expect.poll(() => live.locator('td code').allTextContents()).toEqual(['city:atlanta-ga'])
  expect(await live.textContent()).toMatch(/up to \d+/)
  await page.getByLabel('Purge by').selectOption('url')
  await page.getByLabel('What to purge').fill('https://evil.example/nannies')
  await expect.poll(() => live.locator('.error').textContent()).toContain('not a URL of this site')
  // Nothing was purged or left: the page is still the form.
  expect(page.url()).toBe(`${base}/__ops`)

  await page.goto(`${base}/__ops/health`)
  const counted = page.locator('#live-counts th:text-is("activity.upserted") + td')
  const before = (await counted.count()) ? Number(await counted.textContent()) : 0
  const activity = JSON.parse(
    await readFile('docs/sync-examples/activity.upserted.json', 'utf8'),
  ) as { version: number }
  await sendChanges([{ ...activity, version: Date.now() }])
  // Counted by the island without a reload: it fetches the counts every few seconds.
  await expect
    .poll(async () => ((await counted.count()) ? Number(await counted.textContent()) : 0), {
      timeout: 60_000,
      interval: 500,
    })
    .toBe(before + 1)
  expect(problems).toEqual([])
  await page.context().close()
}, 90_000)

/** A desktop's window: the console's wide tables (flags, dead letters) as ops mostly see them. */
const DESKTOP = { viewport: { width: 1280, height: 900 } }

/** How many provider banners a fresh visitor sees on `path`. */
async function banners(path: string): Promise<number> {
  const context = await browser.newContext(PHONE)
  const page = await context.newPage()
  await page.goto(base + path)
  const count = await page.getByRole('complementary', { name: 'For providers' }).count()
  await context.close()
  return count
}

/** On the flags page: changes `name` to `doc` through its diff and confirmation. */
async function changeFlag(page: Page, name: string, doc: string): Promise<void> {
  await page.goto(`${base}/__ops/flags`)
  await page.getByRole('link', { name: `Change ${name}` }).click()
  await page.waitForURL(/\/__ops\/flags\/change\?/)
  await page.getByLabel(`New document of ${name}`).fill(doc)
  await page.getByRole('button', { name: 'Show the change' }).click()
  await page.waitForURL(/\/__ops\/flags\/change$/)
  // A refused document comes back as the form with the reason: no diff to save.
  expect(await page.locator('p.error').allTextContents()).toEqual([])
  expect(await page.locator('h1').textContent()).toBe(`Change ${name}`)
  expect(await violations(page)).toEqual([])
  await page.getByRole('button', { name: 'Save the change' }).click()
  await page.waitForURL(/\/__ops\/flags\?changed=/)
  expect(await page.getByRole('status').textContent()).toContain(`${name} saved`)
}

/** The value the flags page says a new visitor gets of `name` on `path`. */
async function valueFor(page: Page, name: string, path: string): Promise<string | null> {
  await page.goto(`${base}/__ops/flags`)
  await page.getByLabel('Page URL (or path)').fill(base + path)
  await page.getByRole('button', { name: 'Show the values' }).click()
  await page.waitForURL(/\/__ops\/flags\/visitor\?/)
  expect(await violations(page)).toEqual([])
  return page
    .locator('tr', { has: page.locator(`th:text-is("${name}")`) })
    .locator('td')
    .first()
    .textContent()
}

it('changes a flag after its diff, and a page shows the change to its visitors', async () => {
  const path = '/explore/d/robotics'
  const name = 'providerSignUpBanner'
  expect(await banners(path)).toBe(0)
  const page = await signedIn(DEV_PEOPLE.editor, DESKTOP)
  expect(await valueFor(page, name, path)).toBe('off')
  await page.goto(`${base}/__ops/flags/change?name=${name}`)
  const before = await page.getByLabel(`New document of ${name}`).inputValue()

  await changeFlag(page, name, '{"state":"ENABLED","rules":[{"pageTypes":["campsAndActivities"]}]}')
  expect(await violations(page)).toEqual([])
  expect(await valueFor(page, name, path)).toBe('on')
  expect(await banners(path)).toBe(1)

  // Put back as it was, for the other tests: the page shows it at once again.
  await changeFlag(page, name, before)
  expect(await banners(path)).toBe(0)
  await page.context().close()
}, 120_000)

/** POSTs catalog messages to the worker's endpoint, as the catalog's producers do. */
async function sendChanges(messages: unknown[]): Promise<void> {
  const res = await fetch(`${base}/__ops/catalog`, {
    method: 'POST',
    headers: { authorization: `Bearer ${E2E_SYNC_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  })
  expect(res.status, await res.text()).toBe(202)
}

it('lists a dead letter with its reason, replays it, and its job is served', async () => {
  const job = JSON.parse(await readFile('docs/sync-examples/job.upserted.json', 'utf8')) as {
    id: number
    version: number
    entity: { title: string; cityId: number; postedAt: string; validThrough: string }
  }
  const city = JSON.parse(await readFile('docs/sync-examples/city.added.json', 'utf8')) as {
    id: number
    version: number
  }
  const day = 86_400_000
  Object.assign(job, { id: 900000747, version: Date.now() })
  Object.assign(job.entity, {
    cityId: 4299747,
    postedAt: new Date(Date.now() - day).toISOString(),
    validThrough: new Date(Date.now() + 30 * day).toISOString(),
  })
  // A job in a city the catalog does not have: retried, then dead-lettered with the reason.
  await sendChanges([job])
  const page = await signedIn(DEV_PEOPLE.editor, DESKTOP)
  await page.goto(`${base}/__ops/health`)
  const row = page.locator('tr', { hasText: `job.upserted ${job.id} v` })
  await expect
    .poll(async () => (await page.reload(), row.count()), { timeout: 90_000, interval: 1_000 })
    .toBe(1)
  expect(await row.textContent()).toContain(`city ${job.entity.cityId}`)
  expect(await violations(page)).toEqual([])

  // Its city arrives; once the health page's island counts it applied, the job can be.
  await sendChanges([{ ...city, id: job.entity.cityId, version: Date.now() }])
  const applied = page.locator('#live-counts th:text-is("city.added")')
  await expect.poll(() => applied.count(), { timeout: 30_000, interval: 500 }).toBe(1)
  await row.getByRole('button', { name: /Replay dead letter/ }).click()
  await page.waitForURL(/\/__ops\/health\?replayed=1&/)
  expect(await page.getByRole('status').textContent()).toContain('Replayed: 1 sent back')
  expect(await row.count()).toBe(0)
  expect(await violations(page)).toEqual([])
  await page.context().close()

  const path = jobPath({ titleSlug: slugOf(job.entity.title), id: job.id })
  await expect
    .poll(async () => (await fetch(base + path)).status, { timeout: 30_000, interval: 500 })
    .toBe(200)
}, 180_000)
