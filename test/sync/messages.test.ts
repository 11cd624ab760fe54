import { describe, expect, it } from 'vitest'
import {
  MAX_MESSAGES,
  MESSAGE_KINDS,
  messageProblems,
  validateMessages,
} from '../../src/sync/messages'
import { example, EXAMPLES } from './examples'

describe('the change contract', () => {
  it('has a valid example of every kind in docs/sync-examples', () => {
    for (const kind of MESSAGE_KINDS) {
      expect(EXAMPLES[kind], kind).toBeDefined()
      expect(messageProblems(EXAMPLES[kind]), kind).toEqual([])
    }
  })

  it('names the field of every problem', () => {
    const provider = example<{ entity: Record<string, unknown> }>('provider.upserted')
    provider.entity.cityId = 'atlanta'
    provider.entity.badges = ['BACKGROUND_CHECK', 'GOLD_STAR']
    delete provider.entity.bio
    const problems = messageProblems(provider)
    expect(problems).toHaveLength(3)
    expect(problems.find((p) => p.startsWith('entity.cityId: '))).toBeDefined()
    expect(problems.find((p) => p.startsWith('entity.badges.1: '))).toBeDefined()
    expect(problems.find((p) => p.startsWith('entity.bio: '))).toBeDefined()
  })

  it('refuses an unknown kind and a removal without a version', () => {
    expect(messageProblems({ kind: 'provider.renamed', id: 1, version: 1 })).toEqual([
      `kind: not one of ${MESSAGE_KINDS.join(', ')}`,
    ])
    expect(messageProblems({ kind: 'provider.removed', id: 1 })).toEqual([
      'version: Invalid input: expected number, received undefined',
    ])
  })

  it('checks coded lists against the service they belong to', () => {
    const listing = example<{ entity: { options: string[]; ages: string[] } }>(
      'provider-service.offered',
    )
    listing.entity.options = ['HKS001']
    expect(messageProblems(listing)).toEqual([
      'entity.options.0: babysitters has no such list: leave it empty',
    ])
    const job = example<{ entity: { ages: string[]; service: string } }>('job.upserted')
    job.entity.ages = ['PUPPY']
    expect(messageProblems(job)[0]).toMatch(
      /^entity\.ages\.0: "PUPPY" is not one of the codes of babysitters /,
    )
    job.entity.service = 'babysitters'
    expect(messageProblems(job)).toEqual(['entity.service: "babysitters" is not a job service'])
  })

  it('refuses a whole batch with every refused message and its place', () => {
    const good = EXAMPLES['review.added']
    const result = validateMessages([good, { kind: 'review.removed', id: -1, version: 2 }, good, 7])
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.refused.map((r) => [r.index, r.kind])).toEqual([
      [1, 'review.removed'],
      [3, null],
    ])
    expect(result.refused[0]?.reasons[0]).toMatch(/^id: /)
  })

  it('takes at most MAX_MESSAGES at once, and none is no batch', () => {
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => EXAMPLES['activity.removed'])
    expect(validateMessages(many)).toMatchObject({ ok: false, refused: [{ index: -1 }] })
    expect(validateMessages(many.slice(1))).toMatchObject({ ok: true })
    expect(validateMessages([])).toMatchObject({ ok: false })
    expect(validateMessages({})).toMatchObject({ ok: false })
  })
})
