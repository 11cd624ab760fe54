/**
 * Errors nobody can act on (seed section 8): browser noise, and the page-loading messages a
 * navigation that was cancelled or redirected leaves behind. Server and browser share the list.
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

/** Headless browsers are tests and scrapers, not visitors: their errors are dropped. */
export const HEADLESS = /HeadlessChrome|HeadlessFirefox|PhantomJS|SlimerJS|Playwright|Puppeteer/i
