/** How a response's Content-Security-Policy lets each inline script of its document run. */
export type Allowed = 'nonce' | 'hash' | 'blocked'

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g
/** Data blocks (JSON, JSON-LD) never run, so no policy applies to them. */
const DATA = /\stype="application\/(?:ld\+)?json"/

/** Each inline script the browser would run, as the response's policy treats it. */
export async function inlineScripts(res: Response, html: string): Promise<Allowed[]> {
  const sources = (
    /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? ''
  ).split(' ')
  const found: Allowed[] = []
  for (const [, attributes = '', code = ''] of html.matchAll(SCRIPT)) {
    if (/\ssrc=/.test(attributes) || DATA.test(attributes)) continue
    const nonce = / nonce="([^"]+)"/.exec(attributes)?.[1]
    if (nonce && sources.includes(`'nonce-${nonce}'`)) found.push('nonce')
    else if (sources.includes(`'sha256-${await sha256(code)}'`)) found.push('hash')
    else found.push('blocked')
  }
  return found
}

async function sha256(code: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code))
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
}
