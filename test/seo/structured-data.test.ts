import { describe, expect, it } from 'vitest'
import { ACTIVITY_KEYWORDS } from '../../src/catalog/activities'
import { SEGMENTS } from '../../src/catalog/segments'
import { jsonLd, settled } from '../support/fetch-page'
import { parityGaps, ruleBreaks } from '../support/structured-data'
import { fromShards } from '../support/databases'

/** Every JSON-LD block of a page, checked for parity and Google's rules. */
async function check(path: string) {
  const { res, body } = await settled(path)
  const blocks = jsonLd(body)
  return {
    path,
    status: res.status,
    blocks,
    gaps: parityGaps(blocks, body),
    breaks: ruleBreaks(blocks),
  }
}

const clean = (r: Awaited<ReturnType<typeof check>>) => ({
  path: r.path,
  status: r.status,
  gaps: [],
  breaks: [],
})

const types = (blocks: readonly Record<string, unknown>[]) => blocks.map((b) => b['@type'])

/** The rows `sql` picks on each shard, one shard's after another's. */
async function ids(sql: string, ...params: unknown[]): Promise<{ id: number; slug: string }[]> {
  return fromShards<{ id: number; slug: string }>(sql, ...params)
}

describe('the checks', () => {
  it('find a stated value the page does not show, and the rules a block breaks', () => {
    const html = '<main><h1>Maria G.</h1><p>Posted November 3, 2026</p><p>$18–$25/hr</p></main>'
    const posting = {
      '@type': 'JobPosting',
      title: 'Maria G.',
      datePosted: '2026-11-03',
      baseSalary: { value: { minValue: 18, maxValue: 250 } },
    }
    expect(parityGaps([posting], html)).toEqual(['[0].baseSalary.value.maxValue: 250'])
    expect(parityGaps([{ name: 'Maria G.', date: '2026-11-04' }], html)).toEqual([
      '[0].date: 2026-11-04',
    ])
    expect(ruleBreaks([posting])).toEqual([
      '[0]: JobPosting without description',
      '[0]: JobPosting without hiringOrganization.name',
      '[0]: JobPosting without jobLocation.address.addressLocality',
      '[0]: JobPosting without jobLocation.address.addressRegion',
      '[0]: JobPosting without jobLocation.address.addressCountry',
    ])
    expect(ruleBreaks([{ '@type': 'FAQPage' }])).toEqual(['[0]: FAQPage'])
    expect(
      ruleBreaks([
        {
          '@type': 'ProfilePage',
          mainEntity: { '@type': 'Person', name: 'A', aggregateRating: {} },
        },
      ]),
    ).toEqual(['[0].mainEntity: review stars on a Person'])
  })
})

describe('structured data states only what the page shows', () => {
  it('on listing, hub, guide and segment pages: breadcrumbs that are the visible trail', async () => {
    const paths = [
      '/babysitters',
      '/babysitters/ga',
      '/babysitters/atlanta-ga',
      '/babysitters/atlanta-ga?page=2',
      '/day-care/atlanta-ga',
      '/au-pairs',
      '/au-pairs/atlanta-ga',
      '/errands/ga',
      '/errands/atlanta-ga',
      '/babysitting-jobs/atlanta-ga',
      '/local/atlanta-ga',
      '/cost/nannies',
      '/cost/nannies/seattle-wa',
      ...SEGMENTS.map((s) => `/${s.slug}`),
    ]
    for (const path of paths) {
      const r = await check(path)
      expect(r).toMatchObject(clean(r))
      expect(types(r.blocks)).toEqual(['BreadcrumbList'])
    }
  })

  it('on the home page: none, as it shows no entity and no trail', async () => {
    const r = await check('/')
    expect(r).toMatchObject(clean(r))
    expect(r.blocks).toEqual([])
  })

  it('on caregiver profiles: a Person without review stars', async () => {
    const caregivers = await ids(
      `SELECT id, name_slug AS slug FROM providers WHERE business_type = 'CAREGIVER'
       ORDER BY review_count DESC, id LIMIT 8`,
    )
    for (const p of caregivers) {
      const r = await check(`/p/${p.slug}-${p.id}`)
      expect(r).toMatchObject(clean(r))
      expect(types(r.blocks)).toEqual(['ProfilePage', 'BreadcrumbList'])
    }
  })

  it('on daycare profiles: a ChildCare business with its rating', async () => {
    const centres = await ids(
      `SELECT id, name_slug AS slug FROM providers WHERE business_type = 'SMB'
       ORDER BY review_count DESC, id LIMIT 8`,
    )
    expect(centres.length).toBeGreaterThan(0)
    let rated = 0
    for (const p of centres) {
      const r = await check(`/p/${p.slug}-${p.id}`)
      expect(r).toMatchObject(clean(r))
      expect(types(r.blocks)).toEqual(['ChildCare', 'BreadcrumbList'])
      if (r.blocks[0]?.aggregateRating) rated++
    }
    expect(rated).toBeGreaterThan(0)
  })

  it('on open jobs of every pay unit: a JobPosting; on closed jobs: none', async () => {
    const now = new Date().toISOString()
    const open = await ids(
      `SELECT MIN(id) AS id, title_slug AS slug FROM jobs WHERE valid_through > ? GROUP BY pay_unit`,
      now,
    )
    expect(open.length).toBeGreaterThanOrEqual(5)
    for (const j of open) {
      const r = await check(`/job/${j.slug}-${j.id}`)
      expect(r).toMatchObject(clean(r))
      expect(types(r.blocks)).toEqual(['JobPosting', 'BreadcrumbList'])
    }
    const [closed] = await ids(
      'SELECT id, title_slug AS slug FROM jobs WHERE valid_through <= ? LIMIT 1',
      now,
    )
    const r = await check(`/job/${closed?.slug}-${closed?.id}`)
    expect({ status: r.status, blocks: r.blocks }).toEqual({ status: 410, blocks: [] })
  })

  // One request per activity keyword: the timeout is a budget for the walk, not a speed target.
  it('on every activity page: an Event per dated activity, in person or online', async () => {
    const seen = new Set<string>()
    for (const keyword of ACTIVITY_KEYWORDS) {
      const r = await check(`/explore/d/${keyword.slug}`)
      if (r.status === 404) continue
      expect(r).toMatchObject(clean(r))
      for (const block of r.blocks)
        seen.add(
          String((block.location as { '@type'?: string } | undefined)?.['@type'] ?? block['@type']),
        )
    }
    expect([...seen].sort()).toEqual(['BreadcrumbList', 'Place', 'VirtualLocation'])
  }, 60_000)
})
