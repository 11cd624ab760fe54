// A real HTTP server on 127.0.0.1 that receives Sentry envelopes, for the error reporting tests:
// from the worker (workers project) and from the browser (e2e project). The DSN's project id
// picks how it answers: 1 accepts, 2 never answers, 3 fails with 500, 4 rate-limits with 429
// and `Retry-After: 60`, 5 rate-limits with a bare 429. GET /envelopes lists what it received;
// GET /held lists the envelopes of project 2 whose senders are still waiting for an answer.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Envelope {
  project: string
  path: string
  body: string
}

export async function startCaptureServer(): Promise<{ origin: string; close: () => void }> {
  const envelopes: Envelope[] = []
  const held = new Set<Envelope>()
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://capture')
    // Browsers post cross-origin, as to Sentry, which allows any origin.
    res.setHeader('access-control-allow-origin', '*')
    res.setHeader('access-control-expose-headers', 'retry-after, x-sentry-rate-limits')
    if (req.method === 'GET' && (url.pathname === '/envelopes' || url.pathname === '/held')) {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(url.pathname === '/held' ? [...held] : envelopes))
      return
    }
    const match = /^\/api\/(\d+)\/envelope\/$/.exec(url.pathname)
    if (req.method !== 'POST' || !match) {
      res.writeHead(404).end()
      return
    }
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      const id = match[1] ?? ''
      const envelope = { project: id, path: url.pathname, body }
      envelopes.push(envelope)
      if (id === '2') {
        // Held until the sender gives up and closes the connection.
        held.add(envelope)
        res.on('close', () => held.delete(envelope))
        return
      }
      if (id === '3') res.writeHead(500).end()
      else if (id === '4') res.writeHead(429, { 'retry-after': '60' }).end()
      else if (id === '5') res.writeHead(429).end()
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}
