// `npm run import`'s work on one NDJSON file over a D1 binding (local or remote), shared with
// `npm run seed`: streamed line by line, rejects written beside it, a progress line with rows/s
// and an ETA, resumable from the checkpoint committed with the rows.
import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { progress } from '../progress'
import type { ImportHost } from './host'
import type { ImportCounts } from './import-lines'
import { importLines } from './import-lines'
import type { NumberedLine } from './ndjson'
import { readLines } from './ndjson'
import type { Rejects } from './rejects'
import { openRejects } from './rejects'

export interface FileImport {
  file: string
  /** Where refused lines go, one JSON line each: `{ line, reason, text }`. */
  rejects: string
  /** Skip the lines a previous run of the same file committed. */
  resume: boolean
  batchMessages?: number
  /** The progress line's label. */
  label?: string
}

export interface FileImportResult extends ImportCounts {
  /** Lines a resumed import skipped as already committed. */
  skipped: number
  seconds: number
}

export async function importFile(
  host: Pick<ImportHost, 'apply' | 'answers' | 'checkpoint'>,
  options: FileImport,
): Promise<FileImportResult> {
  const identity = await fileIdentity(options.file)
  const checkpoint = options.resume ? await host.checkpoint() : null
  const skipped = checkpoint?.file === identity ? checkpoint.line : 0
  if (options.resume && !skipped) console.error('import: nothing to resume, starting at line 1')
  const { size } = await stat(options.file)
  let first = -1
  let end = 0
  return importStream(host, {
    lines: (async function* () {
      for await (const item of readLines(options.file, skipped)) {
        end = item.end ?? 0
        if (first < 0) first = end - Buffer.byteLength(item.text) - 1
        yield item
      }
    })(),
    file: identity,
    skipped,
    rejects: openRejects(options.rejects, skipped),
    // The rows still to come, estimated from the bytes still to read.
    total: (read) => Math.round(read + (size - end) * (end > first ? read / (end - first) : 0)),
    ...(options.label ? { label: options.label } : {}),
    ...(options.batchMessages ? { batchMessages: options.batchMessages } : {}),
  })
}

export interface StreamImport {
  lines: AsyncIterable<NumberedLine>
  /** The input's identity for the checkpoint (`fileIdentity`); null: no checkpoint. */
  file: string | null
  /** Lines a resumed import skipped. */
  skipped?: number
  rejects: Rejects
  /** The rows of the whole input, estimated when `read` have been read (the progress's ETA). */
  total(read: number): number
  label?: string
  batchMessages?: number
}

/**
 * Imports numbered lines as they come (from a file, or from the seed's generator while it
 * writes them): the rejects written, a progress line, and the counts once every batch is
 * committed.
 */
export async function importStream(
  host: Pick<ImportHost, 'apply' | 'answers'>,
  input: StreamImport,
): Promise<FileImportResult> {
  const started = performance.now()
  const { rejects, skipped = 0 } = input
  const shown = progress(input.label ?? 'import')
  const counts = await importLines({
    target: host,
    lines: input.lines,
    file: input.file,
    reject: (line, reason, text) => rejects.add(line, reason, text),
    progress: (c) => shown.update(c.read, input.total(c.read), `rows; ${c.rejected} rejected`),
    ...(input.batchMessages ? { batchMessages: input.batchMessages } : {}),
  }).finally(() => rejects.close())
  const seconds = (performance.now() - started) / 1000
  shown.end(
    `${counts.applied} applied, ${counts.rejected} rejected, ${skipped} skipped in ${seconds.toFixed(1)} s` +
      ` (${(counts.read / Math.max(seconds, 0.001)).toFixed(0)} rows/s)`,
  )
  return { ...counts, skipped, seconds }
}

/** Enough of the file to tell it from another of the same name and size. */
const HEAD_BYTES = 1 << 20

/** A file's identity for its checkpoint. */
export async function fileIdentity(path: string): Promise<string> {
  const { size } = await stat(path)
  const handle = await open(path)
  try {
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES))
    await handle.read(head, 0, head.length, 0)
    const hash = createHash('sha256').update(head).digest('hex').slice(0, 16)
    return `${basename(path)}:${size}:${hash}`
  } finally {
    await handle.close()
  }
}
