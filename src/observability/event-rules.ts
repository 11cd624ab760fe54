import { FILTER_PARAMS } from '../catalog/filters'

// What error reports keep and drop: one set of rules for the server (Toucan, sentry.ts) and the
// browser (src/client/report.ts).

/**
 * Errors nobody can act on (docs/operations.md, "Errors and logs"): browser noise, and the
 * page-loading messages a navigation that was cancelled or redirected leaves behind.
 */
export const IGNORED_ERRORS: readonly (string | RegExp)[] = [
  /^ResizeObserver loop/,
  'Non-Error promise rejection captured',
  /^Script error\.?$/,
  'Failed to fetch',
  'Load failed',
  'NetworkError when attempting to fetch resource.',
  'Route Cancelled',
  'Abort fetching component for route',
  'Loading initial props cancelled',
  /NEXT_REDIRECT/,
  /^Redirect/,
  /The operation was aborted/,
]

/** Whether a message is one of IGNORED_ERRORS (a string pattern matches anywhere, as in Sentry). */
export function isIgnored(message: string): boolean {
  return IGNORED_ERRORS.some((p) => (typeof p === 'string' ? message.includes(p) : p.test(message)))
}

/** Headless browsers are tests and scrapers, not visitors: their errors are dropped. */
export const HEADLESS = /HeadlessChrome|HeadlessFirefox|PhantomJS|SlimerJS|Playwright|Puppeteer/i

/** The product's limits: stack traces keep 50 frames and 1,024 characters per line. */
export const MAX_FRAMES = 50
export const MAX_LINE = 1024
/** The product's rate-limit fallback when a 429 names no Retry-After. */
export const RATE_LIMIT_FALLBACK_MS = 60_000

/**
 * Query parameters whose values may be sent: the listing filters, never anything a visitor
 * typed about themselves.
 */
export const SAFE_PARAMS = [
  ...new Set([...Object.values(FILTER_PARAMS), 'sort', 'page', 'categories', 'subcategories']),
]
