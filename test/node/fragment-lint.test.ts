// The lint rule that keeps fragments from reading context (scripts/lint/fragment-reads-no-context.js),
// run by ESLint with the project's own configuration on a real view, as it is and with a hook
// added to what the fragment renders. Only that rule runs: the type-checked rules of the rest of
// the configuration have nothing to say here, and one of them (no-unsafe-assignment) once crashed
// inside TypeScript's type printer on CI while linting the edited text.
import { readFile } from 'node:fs/promises'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const RULE = 'fragments/fragment-reads-no-context'
const CARD = 'src/views/listing/card.tsx'

async function fragmentErrors(text: string): Promise<string[]> {
  const [result] = await new ESLint({ ruleFilter: ({ ruleId }) => ruleId === RULE }).lintText(
    text,
    { filePath: CARD },
  )
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message)
}

describe('the lint of fragments', () => {
  it('passes a fragment whose components read no context, and fails one that reads the site', async () => {
    const card = await readFile(CARD, 'utf8')
    expect(await fragmentErrors(card)).toEqual([])
    // The card's body (a fragment) now reads the request's site through a component of its file.
    const reading = card
      .replace(
        "import { Avatar } from '../parts/avatar'",
        "import { Avatar } from '../parts/avatar'\nimport { useSite } from '../site-context'",
      )
      .replace(
        'function CardBody({ card }: { card: CardModel }) {',
        'function CardBody({ card }: { card: CardModel }) {\n  const { path } = useSite()\n  void path',
      )
    expect(reading).not.toBe(card)
    expect(await fragmentErrors(reading)).toEqual([
      expect.stringContaining('CardBody calls useSite'),
    ])
  }, 120_000)
})
