// The generated catalog as NDJSON lines of change messages, city by city: what `npm run seed`
// writes and imports (in a thread of its own, generate-thread.ts) and the tests load.
import { generateCatalog } from './generate-catalog'
import type { GenerateOptions } from './generate-catalog'
import { cityMessages } from './messages'
import type { Place } from './places'

/** Each place's messages as JSON lines, versioned by `options.now`: the catalog is one snapshot. */
export function* catalogLines(
  places: readonly Place[],
  options: GenerateOptions,
): Generator<string[]> {
  const version = options.now.getTime()
  for (const rows of generateCatalog(places, options))
    yield [...cityMessages(rows, version)].map((message) => JSON.stringify(message))
}
