// Where a resumed import starts: the last line committed, kept in catalog_meta and written in the
// same D1 batch as the rows it covers, so it can never claim more (or less) than was applied.
const KEY = 'import_checkpoint'

export interface Checkpoint {
  /** The file's identity (import-file.ts): its name, size and a hash of its first MiB. */
  file: string
  /** The last line whose batch was committed. */
  line: number
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
