// The rejects file of an import: one JSON line per refused input line, with its number and the
// reason, so an operator can fix the source and import those lines again.
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { WriteStream } from 'node:fs'

export interface Reject {
  line: number
  reason: string
  /** The start of the refused line, enough to recognise it. */
  text: string
}

const TEXT_KEPT = 200

export interface Rejects {
  add(line: number, reason: string, text: string): void
  readonly count: number
  close(): Promise<void>
}

/**
 * Opens `path` for an import's rejects. A fresh import starts it empty; a resumed one keeps the
 * rejects of the lines it skips (up to `keepThrough`), so the file always describes the whole
 * input once.
 */
export function openRejects(path: string, keepThrough = 0): Rejects {
  const kept = keepThrough > 0 && existsSync(path) ? keptRejects(path, keepThrough) : []
  writeFileSync(path, kept.map((r) => JSON.stringify(r) + '\n').join(''))
  const out: WriteStream = createWriteStream(path, { flags: 'a' })
  let count = kept.length
  return {
    add(line, reason, text) {
      count++
      out.write(JSON.stringify({ line, reason, text: text.slice(0, TEXT_KEPT) }) + '\n')
    },
    get count() {
      return count
    },
    close: () =>
      new Promise((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve()))),
  }
}

/** The rejects of a file already written, up to line `through`. */
export function keptRejects(path: string, through: number): Reject[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Reject)
    .filter((r) => r.line <= through)
}
