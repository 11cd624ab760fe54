import { describe, expect, it } from 'vitest'
import { page, textOf } from '../support/fetch-page'
import { fromShards } from '../support/databases'

/** The answers section of a page, as text: each question followed by its answer. */
async function answersOn(path: string): Promise<string> {
  const { res, html } = await page(path)
  expect(res.status).toBe(200)
  expect(html).not.toContain('FAQPage')
  const section = /<section class="answers"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1]
  return textOf(section ?? '')
}

/** What the catalog holds of babysitters in `where`, counted here straight from the tables. */
async function counted(where: string, ...params: string[]) {
  // A state's cities may be on several shards: each counts its own, summed here.
  const parts = await fromShards<{ n: number; checked: number; reviewed: number; reviews: number }>(
    `SELECT COUNT(*) AS n, IFNULL(SUM(ps.badges & 1 != 0), 0) AS checked,
            IFNULL(SUM(p.rating IS NOT NULL), 0) AS reviewed, IFNULL(SUM(p.review_count), 0) AS reviews
       FROM provider_services ps JOIN providers p ON p.id = ps.provider_id
       JOIN cities c ON c.id = ps.city_id
      WHERE ps.service = 'babysitters' AND ${where}`,
    ...params,
  )
  const row = parts.reduce((sum, part) => ({
    n: sum.n + part.n,
    checked: sum.checked + part.checked,
    reviewed: sum.reviewed + part.reviewed,
    reviews: sum.reviews + part.reviews,
  }))
  if (!row?.n) throw new Error(`no babysitters where ${where}`)
  return row
}

const n = (v: number) => v.toLocaleString('en-US')

describe('answers', () => {
  it("a directory answers from its city's providers: checks, reviews, how to find one", async () => {
    const text = await answersOn('/babysitters/atlanta-ga')
    const c = await counted("c.slug = 'atlanta-ga'")
    expect(text).toContain('How many babysitters in Atlanta, GA have background checks?')
    expect(text).toContain(
      `Of the ${n(c.n)} babysitters in Atlanta, GA, ${n(c.checked)} (${Math.round((c.checked / c.n) * 100)}%) have passed a background check`,
    )
    expect(text).toContain(`${n(c.reviewed)} have reviews from families: ${n(c.reviews)} in all`)
    expect(text).toContain('How do I find a babysitter near me?')
    // The rate summary answers the cost already.
    expect(text).not.toContain('How much does')
  })

  it('reads differently in every city', async () => {
    const atlanta = await answersOn('/babysitters/atlanta-ga')
    const denver = await answersOn('/babysitters/denver-co')
    const sentences = (t: string) => new Set(t.split(/(?<=[.?])\s+/).filter(Boolean))
    const shared = [...sentences(atlanta)].filter((s) => sentences(denver).has(s))
    // Only the questions of the same service, with the city in them, and no answer.
    expect(shared.filter((s) => !s.endsWith('?'))).toEqual([])
  })

  it('a state page answers the cost and points to its largest cities', async () => {
    const text = await answersOn('/babysitters/ga')
    const c = await counted("c.state_code = 'GA'")
    expect(text).toContain('How much does a babysitter cost in Georgia?')
    expect(text).toMatch(/Babysitters in Georgia ask \$[\d.]+\/hr on average/)
    expect(text).toContain(`Of the ${n(c.n)} babysitters in Georgia, ${n(c.checked)} (`)
    expect(text).toMatch(/the most are in Atlanta \(\d+\)/)
  })

  it('a cost guide answers the rest of what its searchers ask', async () => {
    const text = await answersOn('/cost/babysitters/atlanta-ga')
    const c = await counted("c.slug = 'atlanta-ga'")
    expect(text).not.toContain('How much does')
    expect(text).toContain(`Of the ${n(c.n)} babysitters in Atlanta, GA`)
    expect(text).toContain('on their directory, linked below')
    const national = await answersOn('/cost/babysitters')
    expect(national).toContain('How many babysitters in the US have background checks?')
  })
})
