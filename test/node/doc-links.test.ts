// Every link to a section of a document (`docs/<name>.md#<section>`), from the docs, the README, the code
// and the tests, names a heading that exists: a section renamed or folded away fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { expect, it } from 'vitest'

/** A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a Markdown file's headings (a repeated one numbered, as GitHub does). */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const [, heading] of readFileSync(path, 'utf8').matchAll(/^#{1,6} (.*)$/gm)) {
    const anchor = anchorOf(heading ?? '')
    const times = seen.get(anchor) ?? 0
    seen.set(anchor, times + 1)
    found.add(times === 0 ? anchor : `${anchor}-${times}`)
  }
  return found
}

function files(dir: string, ends: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => ends.test(f) && !f.includes('node_modules'))
    .map((f) => join(dir, f))
}

/** The document a link in `from` names: beside it, from the root, or in docs/. */
function documentOf(from: string, target: string): string | undefined {
  return [join(dirname(from), target), normalize(target), join('docs', target)].find((path) =>
    existsSync(path),
  )
}

it('points every link to a section at a heading that exists', () => {
  const sources = [
    'README.md',
    ...files('docs', /\.md$/),
    ...files('src', /\.tsx?$/),
    ...files('scripts', /\.ts$/),
    ...files('test', /\.tsx?$/),
  ]
  const broken: string[] = []
  for (const from of sources) {
    for (const [, target, anchor] of readFileSync(from, 'utf8').matchAll(
      /([\w./-]*\.md)#([\w-]+)/g,
    )) {
      const document = documentOf(from, target ?? '')
      if (!document || !anchors(document).has(anchor ?? ''))
        broken.push(`${from}: ${target}#${anchor}`)
    }
  }
  expect(broken).toEqual([])
})
