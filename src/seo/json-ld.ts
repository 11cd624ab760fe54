import type { BreadcrumbList, WithContext } from 'schema-dts'

/** A breadcrumb as shown on the page: a name and a path on this site. */
export interface Crumb {
  name: string
  path: string
}

/** schema.org BreadcrumbList of the visible breadcrumbs, with absolute item URLs. */
export function breadcrumbList(
  origin: string,
  crumbs: readonly Crumb[],
): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: origin + c.path,
    })),
  }
}

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * JSON for an inline <script type="application/ld+json">: `<`, `>` and `&` are escaped so
 * no value can close the script or open a comment, and U+2028/U+2029 so the text stays
 * valid JavaScript for old parsers. JSON.parse reads the escapes back as the same text.
 */
export function scriptJson(value: unknown): string {
  return scriptSafe(JSON.stringify(value))
}

/** JSON text made safe inside a <script> element, as `scriptJson` makes it. */
export function scriptSafe(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch] ?? ch)
}
