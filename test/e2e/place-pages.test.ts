// What a visitor from a search result finds on a place's pages, in Debian's Chromium against
// `wrangler dev`, with and without JavaScript: the answers to what they searched for, the nearby
// places to go on to, text composed by number, and providers' photos over their initials, which
// stay when a photo fails.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { base, visitsInOneBrowser } from './browser'

const visit = visitsInOneBrowser()

// Counts composed with the wrong number ("1 years"), as machine-made text reads.
const WRONG_NUMBER = /\b1 (?:years|reviews|babysitters|providers|families|jobs|months|hours)\b/

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

    it('leads from a directory to the same service in a nearby city, and from a state to its cities largest first', async () => {
      const { page, errors, close } = await visit('/babysitters/atlanta-ga', javaScript)
      const nearby = page.getByRole('region', { name: 'Babysitters in nearby cities' })
      const first = nearby.getByRole('link').first()
      const href = await first.getAttribute('href')
      expect(href).toMatch(/^\/babysitters\/[a-z-]+-ga$/)
      const city = (await first.textContent()) ?? ''
      await first.click()
      await page.waitForURL(base + href)
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe(`Babysitters in ${city}`)
      await page.goto(base + '/babysitters/ga')
      const cities = page.getByRole('region', { name: 'Babysitters by city' })
      // By population: the state's largest city first.
      const links = await cities.getByRole('link').allTextContents()
      expect(links.length).toBeGreaterThan(2)
      expect(links[0]).toBe('Atlanta')
      expect(errors).toEqual([])
      await close()
    })

    it('composes its text by number, and a profile says no sentence twice', async () => {
      const { page, errors, close } = await visit('/babysitters/atlanta-ga', javaScript)
      expect(await page.locator('main').innerText()).not.toMatch(WRONG_NUMBER)
      await page.locator('li.card h3 a').first().click()
      await page.waitForURL(/\/p\//)
      expect(await page.locator('main').innerText()).not.toMatch(WRONG_NUMBER)
      const reviews = await page.locator('ul.reviews li p:not(.meta)').allInnerTexts()
      const sentences = reviews.flatMap((text) =>
        (text.match(/[^.!?]+[.!?]/g) ?? []).map((x) => x.trim()),
      )
      expect(sentences.length).toBeGreaterThan(1)
      expect(sentences.filter((x, i) => sentences.indexOf(x) !== i)).toEqual([])
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
