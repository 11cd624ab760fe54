// A real HTTP server on 127.0.0.1 that receives Sentry envelopes, for the error reporting tests
// (run by Vitest in Node before the workers project starts). The DSN's project id picks how it
// answers: 1 accepts, 2 never answers, 3 fails with 500, 4 rate-limits with 429.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'

interface Envelope {
  project: string
  path: string
  body: string
}

export default async function setup(project: TestProject) {
  const envelopes: Envelope[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://capture')
    if (req.method === 'GET' && url.pathname === '/envelopes') {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(envelopes))
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
      envelopes.push({ project: id, path: url.pathname, body })
      if (id === '2') return
      if (id === '3') res.writeHead(500).end()
      else if (id === '4') res.writeHead(429, { 'retry-after': '60' }).end()
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('sentryOrigin', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return () => {
    server.closeAllConnections()
    server.close()
  }
}
