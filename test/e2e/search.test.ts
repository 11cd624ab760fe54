// The search form in Debian's Chromium against `wrangler dev`: without JavaScript a plain GET
// form that lands on a directory; with it, a combobox that suggests the catalog's cities and is
// used with the keyboard alone.
import { describe, expect, it } from 'vitest'
import { base, interact, visitsInOneBrowser } from './browser'

const visit = visitsInOneBrowser()

describe('the search form', () => {
  it('without JavaScript, takes a ZIP code from the home page to the nearest directory', async () => {
    const { page, close } = await visit('/', false)
    await page.getByLabel('Care', { exact: true }).selectOption('babysitters')
    await page.getByLabel('City or ZIP code').fill('30303')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(`${base}/babysitters/atlanta-ga`)
    expect(await page.locator('h1').textContent()).toBe('Babysitters in Atlanta, GA')
    await close()
  })

  it('without JavaScript, asks which place was meant and goes on from the choice', async () => {
    const { page, close } = await visit('/nannies/atlanta-ga', false)
    expect(await page.getByLabel('Care', { exact: true }).inputValue()).toBe('nannies')
    await page.getByLabel('City or ZIP code').fill('Atlnta')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/\/search\?/)
    expect(await page.locator('h1').textContent()).toBe('Did you mean one of these?')
    await page.getByRole('link', { name: 'Atlanta, GA' }).click()
    await page.waitForURL(`${base}/nannies/atlanta-ga`)
    await close()
  })

  it('with JavaScript, suggests cities as the visitor types, chosen with the keyboard', async () => {
    const { page, errors, close } = await visit('/', true)
    const place = page.getByRole('combobox', { name: 'City or ZIP code' })
    await interact(page)
    await place.waitFor()
    await page.getByLabel('Care', { exact: true }).selectOption('tutors')
    await place.pressSequentially('Atla', { delay: 30 })
    const list = page.getByRole('listbox', { name: 'Places' })
    await list.waitFor()
    expect(await place.getAttribute('aria-expanded')).toBe('true')
    expect(await list.getByRole('option').first().textContent()).toBe('Atlanta, GA')
    await place.press('ArrowDown')
    const active = await place.getAttribute('aria-activedescendant')
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true')
    await place.press('Enter')
    expect(await place.inputValue()).toBe('Atlanta, GA')
    expect(await place.getAttribute('aria-expanded')).toBe('false')
    await place.press('Enter')
    await page.waitForURL(`${base}/tutors/atlanta-ga`)
    expect(errors).toEqual([])
    await close()
  })

  it('with JavaScript, closes the suggestions on Escape and still submits what was typed', async () => {
    const { page, errors, close } = await visit('/babysitters/ga', true)
    const place = page.getByRole('combobox', { name: 'City or ZIP code' })
    await interact(page)
    await place.waitFor()
    await place.pressSequentially('Sava', { delay: 30 })
    await page.getByRole('listbox', { name: 'Places' }).waitFor()
    await place.press('Escape')
    expect(await place.getAttribute('aria-expanded')).toBe('false')
    await place.fill('30303')
    await place.press('Enter')
    await page.waitForURL(`${base}/babysitters/atlanta-ga`)
    expect(errors).toEqual([])
    await close()
  })
})
