// Crawls a running server from its sitemap index, as a search engine would:
//
//   npm start                                     in one terminal, then
//   npm run crawl                                 every URL of http://localhost:8787's sitemaps
//   npm run crawl -- --every 10                   every tenth URL
//   npm run crawl -- --origin http://host:port
//
// Prints the counts, the time and each failing URL; exits non-zero when any page fails.
import { parseArgs } from 'node:util'
import { crawl } from './crawl-site'

const { values } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://localhost:8787' },
    every: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
  },
})
const every = Number(values.every)
const concurrency = Number(values.concurrency)
if (!(every >= 1 && concurrency >= 1)) {
  console.error('--every and --concurrency take a whole number of at least 1')
  process.exit(2)
}

const result = await crawl(values.origin, { every, concurrency })
for (const failure of result.failures) console.log(failure)
const seconds = result.ms / 1000
console.log(
  `${result.files} sitemap files, ${result.urls} URLs, ${result.fetched} fetched in ` +
    `${seconds.toFixed(1)} s (${(result.fetched / seconds).toFixed(0)} pages/s), ` +
    `${result.failures.length} failures`,
)
process.exit(result.failures.length ? 1 : 0)
