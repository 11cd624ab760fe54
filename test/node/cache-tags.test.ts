// docs/caching.md's table of tags against the kinds the purge endpoint accepts.
import { readFile } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { TAG_KINDS, tagProblem } from '../../src/cache/tags'

async function tagsSection(): Promise<string> {
  const doc = await readFile('docs/caching.md', 'utf8')
  const section = /\n## Tags\n([\s\S]*?)\n## /.exec(doc)?.[1]
  if (!section) throw new Error('docs/caching.md has no "Tags" section')
  return section
}

it('names in docs/caching.md only tags the purge endpoint accepts, and every kind it accepts', async () => {
  const section = await tagsSection()
  // `city:<slug>` stands for any city's tag: a sample value takes the placeholder's place.
  const named = [...section.matchAll(/`([a-z]+:[^`\s]+)`/g)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, 'sample'),
  )
  expect(named.length).toBeGreaterThan(10)
  for (const tag of named) expect(tagProblem(tag), tag).toBeNull()
  expect(new Set(named.map((tag) => tag.split(':')[0]))).toEqual(new Set(TAG_KINDS))
})
