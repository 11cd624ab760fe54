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

    // Without JavaScript, the initials drawn over a failed photo do not yet look like those of an
    // avatar with no photo (docs/pages.md, "Photos"): that case is a known defect, expected to
    // fail until it is mended, when `it.fails` turns red and must become `it` again.
    const fallback = javaScript ? it : it.fails
    fallback('shows the initials where a photo fails to load', async () => {
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
      // The avatar looks as one with no photo: its initials on its tone, no broken-image icon.
      // Without JavaScript the initials are drawn again over the broken photo, so the letters'
      // edges may differ a little; a missing or covered letter differs by its whole shape.
      const shown = await avatar.screenshot()
      await img.evaluate((el) => el.setAttribute('data-initials', ''))
      const lettersCovered = await avatar.screenshot()
      await img.evaluate((el) => el.remove())
      const plain = await avatar.screenshot()
      const letters = await differingPixels(lettersCovered, plain)
      expect(await differingPixels(shown, plain)).toBeLessThan(javaScript ? 1 : letters / 2)
      await close()
    })
  })
}

/** How many pixels of two same-sized PNGs differ visibly, counted in a page of its own. */
async function differingPixels(a: Buffer, b: Buffer): Promise<number> {
  const page = await browser.newPage()
  const url = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`
  const count = await page.evaluate(
    async ([first = '', second = '']) => {
      const pixels = async (src: string) => {
        const image = new Image()
        image.src = src
        await image.decode()
        const canvas = new OffscreenCanvas(image.width, image.height)
        const context = canvas.getContext('2d')
        context?.drawImage(image, 0, 0)
        return (
          context?.getImageData(0, 0, image.width, image.height).data ?? new Uint8ClampedArray()
        )
      }
      const [p, q] = [await pixels(first), await pixels(second)]
      let differing = 0
      for (let i = 0; i < p.length; i += 4) {
        const d = [0, 1, 2].reduce((sum, c) => sum + Math.abs((p[i + c] ?? 0) - (q[i + c] ?? 0)), 0)
        if (d > 60) differing++
      }
      return differing
    },
    [url(a), url(b)],
  )
  await page.close()
  return count
}
