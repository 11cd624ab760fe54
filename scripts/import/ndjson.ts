// Reading an NDJSON file a line at a time: the file is streamed, never held whole, and each line
// keeps its number (1-based, counting blank lines) so a rejection or a checkpoint can name it.
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

export interface NumberedLine {
  line: number
  text: string
  /** Bytes of the file read up to the end of this line (for a progress estimate). */
  end?: number
}

/**
 * The non-blank lines of `path` after line `after` (0: from the start), with their numbers.
 * Lines up to `after` are read and counted but not returned (a resumed import skips them
 * without parsing them).
 */
export async function* readLines(path: string, after = 0): AsyncGenerator<NumberedLine> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity })
  let line = 0
  let end = 0
  for await (const text of lines) {
    line++
    end += Buffer.byteLength(text) + 1
    if (line <= after || !text.trim()) continue
    yield { line, text, end }
  }
}
