const ESCAPE = /%[0-9a-fA-F]{2}/g
// RFC 3986 section 2.3: a URI means the same with these characters encoded or not.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * The one spelling of a path: lowercase, without repeated or trailing slashes, its
 * percent-encoded unreserved characters decoded. The request normaliser redirects to it
 * (src/request/normalise-request.ts); the purge endpoint names pages by it too.
 */
export function normalisedPath(path: string): string {
  return '/' + decodeUnreserved(path).split('/').filter(Boolean).join('/').toLowerCase()
}

/** `path` with its percent-encoded unreserved characters decoded; other escapes kept. */
function decodeUnreserved(path: string): string {
  if (!path.includes('%')) return path
  return path.replace(ESCAPE, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16))
    return UNRESERVED.test(char) ? char : escape
  })
}
