// The import's work on numbered NDJSON lines: each line parsed and validated on its own (a bad
// one is rejected with its number and reason, the rest go on), the valid ones applied in D1
// batches with the checkpoint in the same batch. Free of Node's APIs, so the workers' test setup
// loads its catalog through it too.
import { changeStatements } from '../../src/sync/apply'
import type { CatalogMessage } from '../../src/sync/messages'
import { parseMessage } from '../../src/sync/messages'
import type { Checkpoint } from './checkpoint'
import { checkpointStatement } from './checkpoint'
import type { NumberedLine } from './ndjson'

/**
 * Messages a D1 batch applies: D1 limits a batch by its time, not its statement count. A batch
 * costs the import worker a request and a few statements per kind whatever its size: 1,000 took
 * less of its CPU than 500 (docs/performance.md).
 */
export const BATCH_MESSAGES = 1000

export interface ImportCounts {
  /** Lines read (blank ones aside), skipped ones of a resumed import not included. */
  read: number
  applied: number
  rejected: number
}

/**
 * A valid message and the line it was read from: the same JSON, since the schema only checks
 * (strict objects, no defaults or transforms), so the line can be sent on as it is.
 */
export interface Valid {
  message: CatalogMessage
  text: string
}

/** Where the batches go: a D1 binding (`d1Target`), or the import worker (host.ts). */
export interface ApplyTarget {
  /**
   * Applies `items`, without the stats and purges derived from them, and records `checkpoint`,
   * in one atomic D1 batch; throws D1's reason when it refuses.
   */
  apply(items: readonly Valid[], checkpoint: Checkpoint | null): Promise<void>
  /** Whether D1 answers at all (after a refused batch: is a message at fault, or D1?). */
  answers(): Promise<boolean>
}

/** Applies `messages` without their derivation, and records `checkpoint`, in one D1 batch. */
export async function applyImported(
  db: D1Database,
  messages: readonly CatalogMessage[],
  checkpoint: Checkpoint | null,
): Promise<void> {
  const statements = changeStatements(db, messages, { derive: false })
  if (checkpoint) statements.push(checkpointStatement(db, checkpoint))
  if (statements.length) await db.batch(statements)
}

export function d1Target(db: D1Database): ApplyTarget {
  return {
    apply: (items, checkpoint) =>
      applyImported(
        db,
        items.map((i) => i.message),
        checkpoint,
      ),
    async answers() {
      try {
        await db.batch([db.prepare('SELECT 1')])
        return true
      } catch {
        return false
      }
    },
  }
}

export interface LineImport {
  target: ApplyTarget
  lines: AsyncIterable<NumberedLine> | Iterable<NumberedLine>
  /** The input's identity, kept with the checkpoint (checkpoint.ts); null: no checkpoint. */
  file: string | null
  reject(line: number, reason: string, text: string): void
  progress?(counts: ImportCounts, line: number): void
  batchMessages?: number
}

interface Pending extends Valid {
  line: number
}

/** Imports every line; resolves to the counts once every batch is committed or rejected. */
export async function importLines(run: LineImport): Promise<ImportCounts> {
  const counts: ImportCounts = { read: 0, applied: 0, rejected: 0 }
  const size = run.batchMessages ?? BATCH_MESSAGES
  const reject = (line: number, reason: string, text: string) => {
    counts.rejected++
    run.reject(line, reason, text)
  }

  /**
   * Applies `items` in one batch that also records `through` (every line up to it is then
   * applied or rejected). When D1 refuses a whole batch but still answers, a message in it is
   * at fault: the batch is split in halves, down to the one message D1 cannot take, which is
   * rejected with D1's reason, and the others are applied. When D1 does not answer at all, the
   * import stops there (the checkpoint lets it resume), rejecting nothing.
   */
  const commit = async (items: Pending[], through: number, whole = false): Promise<void> => {
    const checkpoint = run.file === null ? null : { file: run.file, line: through }
    try {
      await run.target.apply(items, checkpoint)
      counts.applied += items.length
    } catch (error) {
      if (whole && !(await run.target.answers())) throw error
      const [only] = items
      if (items.length > 1) {
        const half = Math.ceil(items.length / 2)
        await commit(items.slice(0, half), items[half - 1]?.line ?? through)
        await commit(items.slice(half), through)
      } else if (only) reject(only.line, `not applied: ${reasonOf(error)}`, only.text)
      else throw error
    }
  }

  // One batch is committed while the next is read and validated.
  let committing: Promise<void> = Promise.resolve()
  let batch: Pending[] = []
  let last = 0
  const flush = async () => {
    const items = batch
    const through = last
    batch = []
    await committing
    committing = commit(items, through, true)
    // Its failure is thrown where it is awaited (the next flush, or the end), not meanwhile as
    // an unhandled rejection.
    committing.catch(() => undefined)
  }
  for await (const { line, text } of run.lines) {
    counts.read++
    last = line
    let input: unknown
    try {
      input = JSON.parse(text)
    } catch (error) {
      reject(line, `not JSON: ${reasonOf(error)}`, text)
      continue
    }
    const parsed = parseMessage(input)
    if (!parsed.ok) reject(line, parsed.reasons.join('; '), text)
    else batch.push({ line, message: parsed.message, text })
    if (batch.length >= size) await flush()
    run.progress?.(counts, line)
  }
  if (batch.length || last) await flush()
  await committing
  run.progress?.(counts, last)
  return counts
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
