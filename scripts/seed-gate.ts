// How `npm start` (scripts/start.ts) holds `wrangler dev` back until the seed has ended, while
// letting it start, build the assets and load alongside the seed. wrangler dev bundles the
// worker, starts its workerd and opens its port only once its [build] step (wrangler.toml) has
// ended, and that step, scripts/build-assets.ts, ends with `seedFinished()`: so no worker opens
// the local D1 while the seed writes it, and no page is ever served from a half-seeded catalog.
import type { ServerResponse } from 'node:http'
import { createServer, get } from 'node:http'

/** The variable `npm start` gives wrangler dev (and so its [build] step): where to ask. */
export const SEED_GATE = 'CARE_SEED_GATE'

export interface SeedGate {
  /** For the build's environment (`SEED_GATE`). */
  url: string
  /** The seed has ended: `failure` null when it succeeded, else what went wrong. */
  settle(failure: string | null): void
  /** The builds waiting for it now. */
  waiting(): number
  close(): Promise<void>
}

/** The server, in `npm start`, that answers each waiting build once the seed has ended. */
export async function openSeedGate(): Promise<SeedGate> {
  // undefined: the seed is still running.
  let outcome: string | null | undefined
  const waiting = new Set<ServerResponse>()
  const answer = (res: ServerResponse) => {
    res.statusCode = outcome === null ? 200 : 500
    res.end(outcome ?? 'seeded')
  }
  const server = createServer((_req, res) => {
    if (outcome === undefined) waiting.add(res)
    else answer(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/`,
    settle(failure) {
      outcome = failure
      for (const res of waiting) answer(res)
      waiting.clear()
    },
    waiting: () => waiting.size,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Under `npm start`, waits until the seed has ended, and throws if it failed or if `npm start`
 * is gone; otherwise (any other build) returns at once. No timeout: a seed under load can take
 * minutes, and `npm start` ends this wait when it stops.
 */
export async function seedFinished(url = process.env[SEED_GATE]): Promise<void> {
  if (!url) return
  const { status, body } = await new Promise<{ status: number; body: string }>(
    (resolve, reject) => {
      // agent: false, so that no kept-alive socket holds the build open afterwards.
      get(url, { agent: false }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
        res.on('error', reject)
      }).on('error', reject)
    },
  ).catch((error: unknown) => {
    throw new Error(
      `npm start stopped before the seed ended (${error instanceof Error ? error.message : String(error)})`,
    )
  })
  if (status !== 200) throw new Error(`the seed failed: ${body}`)
}
