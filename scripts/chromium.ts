// Debian's Chromium as the browser tests and the ops scripts launch it (`npm test`,
// `npm run test:e2e`, `npm run audit`, `npm run screenshots`).
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** What a run without a browser says, in one line. */
export const NO_CHROMIUM =
  'No Chromium found for the browser tests: install it with `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary'

/** The Chromium to launch: CHROMIUM_PATH when set, else `chromium` on PATH; null when neither runs. */
export function chromiumPath(): string | null {
  const { CHROMIUM_PATH, PATH } = process.env
  const candidates = CHROMIUM_PATH
    ? [CHROMIUM_PATH]
    : (PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, 'chromium'))
  return candidates.find(isExecutable) ?? null
}

/** The Chromium to launch; without one, an error that is NO_CHROMIUM. */
export function requireChromium(): string {
  const path = chromiumPath()
  if (path === null) throw new Error(NO_CHROMIUM)
  return path
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The machine's network may be closed: nothing in Chromium reaches out on its own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]
