// The seed's generator in a worker thread gives the very lines the in-process generator does,
// in the same order and numbered from 1, and writes them to its file as it goes.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { catalogLines } from '../../scripts/seed/catalog-lines'
import { AHEAD_LINES, generateInThread } from '../../scripts/seed/generate-thread'
import { catalogPlaces } from '../../scripts/seed/places'

const NOW = new Date('2026-11-01T00:00:00Z')

it('generates, writes and numbers the same lines as the in-process generator', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'care-generate-'))
  try {
    const options = { cities: 40, scale: 0.5, seed: 3 }
    const expected = [
      ...catalogLines(catalogPlaces(options.cities), { ...options, now: NOW }),
    ].flat()
    // More lines than the generator may run ahead, so it waits for the import at least once.
    expect(expected.length).toBeGreaterThan(AHEAD_LINES)
    const file = join(dir, 'catalog.ndjson')
    const catalog = generateInThread({ ...options, now: NOW.toISOString(), file })
    const got: { line: number; text: string }[] = []
    for await (const item of catalog.lines) got.push(item)
    expect(got.map((g) => g.text)).toEqual(expected)
    expect(got.map((g) => g.line)).toEqual(expected.map((_, i) => i + 1))
    expect(await readFile(file, 'utf8')).toBe(expected.join('\n') + '\n')
    expect(catalog.total(got.length)).toBe(expected.length)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
