// Crawls a running server from its sitemap index, as a search engine would. Prints the counts,
// the time and each failing URL; exits non-zero when any page fails.
import { crawl } from './crawl-site'
import { originOption, parseCommandLine, runScript, wholeNumber } from './cli'
import { progress } from './progress'

const USAGE = `
npm run crawl -- [--origin http://localhost:8787] [--every N] [--concurrency 8]

Reads the sitemap index of a running server (npm start, in another terminal) and fetches every
listed URL (every Nth with --every), checking status, head, canonical, robots and links.
`
const { values } = parseCommandLine(USAGE, {
  origin: { type: 'string', default: 'http://localhost:8787' },
  every: { type: 'string', default: '1' },
  concurrency: { type: 'string', default: '8' },
})
const origin = originOption('origin', values.origin)
const every = wholeNumber('every', values.every, { min: 1 })
const concurrency = wholeNumber('concurrency', values.concurrency, { min: 1, max: 256 })

await runScript(async () => {
  const shown = progress('crawl')
  const result = await crawl(origin, {
    every,
    concurrency,
    onPage: (done, total, failures) => shown.update(done, total, `${failures} failures`),
  })
  shown.end()
  for (const failure of result.failures) console.log(failure)
  const seconds = result.ms / 1000
  console.log(
    `${result.files} sitemap files, ${result.urls} URLs, ${result.fetched} fetched in ` +
      `${seconds.toFixed(1)} s (${(result.fetched / seconds).toFixed(0)} pages/s), ` +
      `${result.failures.length} failures`,
  )
  process.exitCode = result.failures.length ? 1 : 0
}, origin)
