import { readdir, readFile } from 'node:fs/promises'
import { unstable_splitSqlQuery } from 'wrangler'

/**
 * Applies the migrations of `dir` that `d1` has not seen, recording them in the same
 * `d1_migrations` table as `wrangler d1 migrations apply`, so either tool can take over.
 */
export async function applyMigrations(d1: D1Database, dir = 'migrations'): Promise<string[]> {
  await d1.exec(
    'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
  )
  const { results } = await d1.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()
  const applied = new Set(results.map((r) => r.name))
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()
  const done: string[] = []
  for (const file of files.filter((f) => !applied.has(f))) {
    const statements = unstable_splitSqlQuery(await readFile(`${dir}/${file}`, 'utf8'))
    await d1.batch([
      ...statements.map((sql) => d1.prepare(sql)),
      d1.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(file),
    ])
    done.push(file)
  }
  return done
}
