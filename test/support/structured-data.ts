import { longDate } from '../../src/views/parts/format'

// Structured-data checks shared by the page tests: every value a JSON-LD block states must be
// visible on the page (Google's structured data policies), and each type carries the
// properties Google requires for it.

/**
 * Keys whose values are identifiers, links or schema.org vocabulary rather than page facts
 * (employmentType maps the visible schedule onto Google's list: "One time" is TEMPORARY).
 */
const NOT_FACTS = new Set([
  '@context',
  '@type',
  'url',
  'item',
  'position',
  'identifier',
  'eventStatus',
  'eventAttendanceMode',
  'addressCountry',
  'bestRating',
  'worstRating',
  'currency',
  'priceCurrency',
  'unitText',
  'directApply',
  'employmentType',
])

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

/** A page's visible text: tags and scripts removed, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<head>[\s\S]*?<\/head>/, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}

/** How a JSON-LD value reads on the page. */
function shownAs(value: string | number): RegExp {
  const text = String(value)
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return new RegExp(escaped(longDate(text)))
  // Numbers stand alone ("18" is not found inside "118") and may read "1,895" or "$25".
  if (typeof value === 'number' || /^\d+(\.\d+)?$/.test(text)) {
    const shown = Number(text).toLocaleString('en-US', { maximumFractionDigits: 2 })
    return new RegExp(`(?<![\\d.,])(${escaped(text)}|${escaped(shown)})(?![\\d]|[.,]\\d)`)
  }
  return new RegExp(escaped(text.replace(/\s+/g, ' ').trim()))
}

/** Every JSON-LD value the visible text does not show, as `path: value`. */
export function parityGaps(blocks: readonly unknown[], html: string): string[] {
  const text = visibleText(html)
  const gaps: string[] = []
  const walk = (value: Json, path: string) => {
    if (value === null || typeof value === 'boolean') {
      gaps.push(`${path}: ${String(value)} (not a value a page can show)`)
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`))
    } else if (typeof value === 'object') {
      for (const [key, v] of Object.entries(value))
        if (!NOT_FACTS.has(key)) walk(v, path ? `${path}.${key}` : key)
    } else if (!shownAs(value).test(text)) {
      gaps.push(`${path}: ${value}`)
    }
  }
  blocks.forEach((b, i) => walk(b as Json, `[${i}]`))
  return gaps
}

/** Properties Google requires, per type (Search Central structured data documentation). */
const REQUIRED: Record<string, readonly string[]> = {
  JobPosting: [
    'title',
    'description',
    'datePosted',
    'hiringOrganization.name',
    'jobLocation.address.addressLocality',
    'jobLocation.address.addressRegion',
    'jobLocation.address.addressCountry',
  ],
  Event: ['name', 'startDate', 'location'],
  BreadcrumbList: ['itemListElement'],
  ListItem: ['position', 'name'],
  ChildCare: ['name', 'address.addressLocality'],
  AggregateRating: ['ratingValue', 'reviewCount'],
  Place: ['address'],
  ProfilePage: ['mainEntity.name'],
}

function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
      value,
    )
}

/**
 * What Google's rules would reject: a missing required property, a FAQPage (restricted to
 * authoritative government and health sites), review stars on a person.
 */
export function ruleBreaks(blocks: readonly unknown[]): string[] {
  const breaks: string[] = []
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${path}[${i}]`))
    if (!value || typeof value !== 'object') return
    const type = (value as Record<string, unknown>)['@type']
    if (type === 'FAQPage') breaks.push(`${path}: FAQPage`)
    if (type === 'Person' && ('aggregateRating' in value || 'review' in value))
      breaks.push(`${path}: review stars on a Person`)
    for (const required of REQUIRED[String(type)] ?? [])
      if (at(value, required) === undefined || at(value, required) === '')
        breaks.push(`${path}: ${String(type)} without ${required}`)
    for (const [key, v] of Object.entries(value)) visit(v, `${path}.${key}`)
  }
  blocks.forEach((b, i) => visit(b, `[${i}]`))
  return breaks
}
