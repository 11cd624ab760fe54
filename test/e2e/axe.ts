import axe from 'axe-core'
import type { Page } from 'playwright-core'

/**
 * What axe finds on the page as it stands (WCAG 2.1 A and AA, and best practices), one line per
 * rule with the elements it names. Injected past a page's policy (the context's `bypassCSP`
 * where the page allows no script, as the ops console's).
 */
export async function violations(page: Page): Promise<string[]> {
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
