// A stand-in for Cloudflare Turnstile on 127.0.0.1, for `npm start` and the tests: its siteverify
// endpoint, answering as Turnstile documents for its test secret keys, and its widget script,
// which puts the dummy token the test site keys produce into the form. Never the network.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Turnstile's documented test keys and the dummy token its test site keys produce. */
export const TURNSTILE_TEST = {
  siteKeyPasses: '1x00000000000000000000AA',
  secretPasses: '1x0000000000000000000000000000000AA',
  secretFails: '2x0000000000000000000000000000000AA',
  secretSpent: '3x0000000000000000000000000000000AA',
  token: 'XXXX.DUMMY.TOKEN.XXXX',
} as const

/** What siteverify answers for `secret` and `response`, as Turnstile documents it. */
export function siteverify(secret: string, response: string) {
  const no = (code: string) => ({ success: false, 'error-codes': [code] })
  if (!secret) return no('missing-input-secret')
  if (!response) return no('missing-input-response')
  if (secret === TURNSTILE_TEST.secretFails) return no('invalid-input-response')
  if (secret === TURNSTILE_TEST.secretSpent) return no('timeout-or-duplicate')
  if (secret !== TURNSTILE_TEST.secretPasses) return no('invalid-input-secret')
  // A test secret takes the dummy token alone, as a real secret takes only real tokens.
  if (response !== TURNSTILE_TEST.token) return no('invalid-input-response')
  return { success: true, 'error-codes': [], hostname: 'localhost', action: 'guest-message' }
}

/**
 * The widget's stand-in: like Turnstile's `api.js` with a test site key, it finds each
 * `.cf-turnstile` and puts the dummy token in a hidden `cf-turnstile-response` field of its form.
 */
export const WIDGET_SCRIPT = `for (const w of document.querySelectorAll('.cf-turnstile')) {
  const input = document.createElement('input')
  input.type = 'hidden'
  input.name = 'cf-turnstile-response'
  input.value = '${TURNSTILE_TEST.token}'
  w.append(input)
}`

/** Starts the stand-in on 127.0.0.1 (`port` 0: any free one); its siteverify URL and close. */
export async function startTurnstileStandIn(port = 0) {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/turnstile/v0/api.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(WIDGET_SCRIPT)
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
      const answer = siteverify(form.get('secret') ?? '', form.get('response') ?? '')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    verifyUrl: `${origin}/turnstile/v0/siteverify`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
