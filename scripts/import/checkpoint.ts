// Where a resumed import starts: the last line committed, kept in catalog_meta and written in the
// same D1 batch as the rows it covers, so it can never claim more (or less) than was applied.
import { createHash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'

const KEY = 'import_checkpoint'
/** Enough of the file to tell it from another of the same name and size. */
const HEAD_BYTES = 1 << 20

export interface Checkpoint {
  /** The file's identity: its name, size and a hash of its first MiB. */
  file: string
  /** The last line whose batch was committed. */
  line: number
}

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

export async function readCheckpoint(db: D1Database): Promise<Checkpoint | null> {
  const row = await db
    .prepare('SELECT value FROM catalog_meta WHERE key = ?')
    .bind(KEY)
    .first<{ value: string }>()
  return row ? (JSON.parse(row.value) as Checkpoint) : null
}

/** The statement that records `checkpoint`, for the batch that commits its rows. */
export function checkpointStatement(db: D1Database, checkpoint: Checkpoint): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO catalog_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    .bind(KEY, JSON.stringify(checkpoint))
}

/** Once the import is complete, nothing is left to resume. */
export async function clearCheckpoint(db: D1Database): Promise<void> {
  await db.prepare('DELETE FROM catalog_meta WHERE key = ?').bind(KEY).run()
}
