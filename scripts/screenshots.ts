// Screenshots of one sample of each page of the page table (src/pages.ts), on a phone and on a desktop, so a change can be
// looked at in review:
//
//   npm start                                       in another terminal: the local server
//   npm run screenshots                             PNGs of http://localhost:8787 into screenshots/
//   npm run screenshots -- --origin URL --out DIR   another server, another folder
//
// Debian's Chromium (`apt-get install -y chromium`, or another binary with CHROMIUM_PATH),
// driven by playwright-core as in the e2e tests. Each PNG is the whole page; its first
// 915 (phone) or 900 (desktop) pixels are the first screen.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, requireChromium } from './chromium'
import { consolePages, samplePages } from './sample-pages'

const USAGE = `usage: npm run screenshots [-- --origin URL] [--out DIR]

  --origin URL   the server to photograph (default http://localhost:8787, as \`npm start\` serves)
  --out DIR      where the PNGs go (default screenshots/), one per page and size`

const SIZES = [
  { name: 'phone', viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1366, height: 900 }, isMobile: false, hasTouch: false },
]

const { values } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://localhost:8787' },
    out: { type: 'string', default: 'screenshots' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const { origin, out } = values

const reachable = await fetch(origin, { redirect: 'manual' }).then(
  () => true,
  () => false,
)
if (!reachable) {
  console.error(
    `screenshots: no server at ${origin}: start one with \`npm start\`, or pass --origin`,
  )
  process.exit(1)
}

// The ops console too, signed in with `npm start`'s development key pair.
const pages = [...(await samplePages(origin)), ...(await consolePages(origin))]
await mkdir(out, { recursive: true })
const browser = await chromium.launch({ executablePath: requireChromium(), args: CHROMIUM_FLAGS })
try {
  for (const { name: size, ...device } of SIZES) {
    const context = await browser.newContext(device)
    for (const { name, path, headers } of pages) {
      const page = await context.newPage()
      if (headers) await page.setExtraHTTPHeaders(headers)
      await page.goto(new URL(path, origin).href, { waitUntil: 'networkidle' })
      const file = join(out, `${name.replaceAll(' ', '-')}-${size}.png`)
      await page.screenshot({ path: file, fullPage: true })
      console.log(`${file}  ${path}`)
      await page.close()
    }
    await context.close()
  }
} finally {
  await browser.close()
}
