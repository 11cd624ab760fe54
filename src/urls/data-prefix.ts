// Listing states as JSON for client navigation live under this prefix (docs/browser.md): the
// same routes, gates and cache as the pages, told apart by the path. The browser script
// imports this file, so it stays free of anything else.

export const DATA_PREFIX = '/_data'

/** The prefix itself and everything under it: all of it answers JSON only. */
export const isDataPath = (path: string) =>
  path === DATA_PREFIX || path.startsWith(`${DATA_PREFIX}/`)

/** The page a data path is the state of. */
export const pageOfDataPath = (path: string) =>
  isDataPath(path) ? path.slice(DATA_PREFIX.length) : path
