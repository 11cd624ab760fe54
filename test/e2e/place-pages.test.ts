// What a visitor from a search result finds on a place's pages, in Debian's Chromium against
// `wrangler dev`, with and without JavaScript: the answers to what they searched for, and
// providers' photos over their initials, which stay when a photo fails.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, visit as visitIn } from './browser'

let browser: Browser
const visit = (path: string, javaScript: boolean, before?: (page: Page) => Promise<unknown>) =>
  visitIn(browser, path, javaScript, before)

beforeAll(async () => {
  browser = await launch()
})
afterAll(() => browser.close())

// The cards whose provider has a photo.
const photoCards = (page: Page) =>
  page.locator('li.card').filter({ has: page.locator('.avatar img') })

for (const javaScript of [false, true]) {
  describe(javaScript ? 'with JavaScript' : 'without JavaScript', () => {
    it.each([
      ['/babysitters/atlanta-ga', 'How many babysitters in Atlanta, GA have background checks?'],
      ['/babysitters/ga', 'How much does a babysitter cost in Georgia?'],
      ['/cost/babysitters/atlanta-ga', 'What do families say about babysitters in Atlanta, GA?'],
    ])('%s answers its searchers in plain sentences', async (path, question) => {
      const { page, errors, close } = await visit(path, javaScript)
      const section = page.getByRole('region', { name: /: questions$/ })
      await expect.poll(() => section.getByRole('heading', { name: question }).count()).toBe(1)
      const answers = await section.locator('p').allTextContents()
      expect(answers.length).toBeGreaterThanOrEqual(3)
      for (const answer of answers) expect(answer).toMatch(/\d/)
      expect(errors).toEqual([])
      await close()
    })

    it('shows the photos that load, once scrolled to, over the initials', async () => {
      const { page, close } = await visit('/babysitters/atlanta-ga', javaScript)
      const card = photoCards(page).first()
      await card.scrollIntoViewIfNeeded()
      const img = card.locator('.avatar img')
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
        .toBeGreaterThan(0)
      expect(await img.boundingBox()).toMatchObject({ width: 56, height: 56 })
      expect(await card.locator('.avatar').textContent()).toMatch(/^\p{L}{1,2}$/u)
      await close()
    })

    it('shows the initials where a photo fails to load, as an avatar with no photo', async () => {
      const broken = (page: Page) =>
        page.route('**/cdn-cgi/image/**', (route) => route.fulfill({ status: 404, body: '' }))
      const { page, close } = await visit('/babysitters/atlanta-ga', javaScript, broken)
      const avatar = await photoCards(page).first().locator('.avatar').elementHandle()
      const img = await avatar?.$('img')
      if (!avatar || !img) throw new Error('no photo on the page')
      await avatar.scrollIntoViewIfNeeded()
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
        .toBe(0)
      if (javaScript) await expect.poll(() => img.isHidden()).toBe(true)
      // Pixel for pixel the avatar it would be with no photo: its initials where they would be,
      // on its tone, and no broken-image icon or border.
      const shown = await avatar.screenshot()
      await avatar.evaluate((el) => el.querySelector('picture')?.remove())
      const plain = await avatar.screenshot()
      expect(shown.equals(plain), 'the avatar differs from one with no photo').toBe(true)
      await close()
    })
  })
}
