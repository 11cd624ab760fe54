// Stops `npm test` and `npm run test:e2e` before anything runs when there is no Chromium for the
// browser tests, with one line saying how to get one, instead of Playwright's launch error in
// every browser test file.
import { chromiumPath, NO_CHROMIUM } from './chromium'

if (chromiumPath() === null) {
  process.stderr.write(`${NO_CHROMIUM}\n`)
  process.exit(1)
}
