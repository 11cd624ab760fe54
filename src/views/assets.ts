import manifest from '../../dist/asset-manifest.json'

/** The content-hashed URLs of the static assets (scripts/build-assets.ts), by source name. */
export const assets = manifest

/**
 * The build: the assets' content hashes. Cached pages are keyed on it, so a deploy never serves
 * a page that links assets it no longer has, and the browser script compares it before
 * rendering a state fetched from the server. The first three (stylesheet, icon, browser script)
 * are enough: the browser script's hash covers React's runtime, which it imports by hashed name.
 */
export const BUILD = Object.values(manifest)
  .map((url) => /\.([0-9a-f]{10})\./.exec(url)?.[1] ?? '')
  .join('')
  .slice(0, 30)
