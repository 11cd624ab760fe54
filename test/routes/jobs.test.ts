import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SEED_CITIES } from '../../src/catalog/cities'
import { JOB_SERVICES } from '../../src/catalog/jobs'
import { instant } from '../../src/data/jobs'
import { listInDirectory, onEntityShard, purge, rebuildGate, shardOf } from '../support/builders'
import {
  anIsolate,
  canonicalOf,
  statementsOnceWarm,
  fetchPage,
  jsonLd,
  ORIGIN,
  page,
  robotsOf,
  settled,
  settledThrough,
  textOf,
  warm,
  withClockStill,
} from '../support/fetch-page'
import { fromShards, shards } from '../support/databases'

afterEach(() => {
  vi.useRealTimers()
})

interface JobRow {
  id: number
  title_slug: string
  title: string
  service: string
  job_type: string
  employer: string
  description: string
  pay_min: number
  pay_max: number
  pay_unit: string
  schedule: string
  hours_per_week: number | null
  ages: number
  valid_through: string
  posted_at: string
  city_id: number
}

const jobLinks = (html: string) =>
  [...html.matchAll(/<li class="card"><div><h3><a href="\/job\/[a-z0-9-]+-(\d+)"/g)].map((m) =>
    Number(m[1]),
  )

/**
 * The jobs `where` picks across the shards, by id; a `where` ending in `ORDER BY id [DESC]
 * LIMIT n` picks the first n of the whole catalog.
 */
async function jobs(where: string, ...params: (string | number)[]): Promise<JobRow[]> {
  const rows = await fromShards<JobRow>(`SELECT * FROM jobs WHERE ${where}`, ...params)
  const order = /ORDER BY id( DESC)? LIMIT (\d+)$/.exec(where.trim())
  rows.sort((a, b) => (order?.[1] ? b.id - a.id : a.id - b.id))
  return order ? rows.slice(0, Number(order[2])) : rows
}

async function atlanta(): Promise<number> {
  const row = await env.CONTROL.prepare("SELECT id FROM cities WHERE slug = 'atlanta-ga'").first<{
    id: number
  }>()
  return row?.id ?? 0
}

describe('job listings (JOBS)', () => {
  it.each(JOB_SERVICES.flatMap((j) => SEED_CITIES.map((c) => [j.slug, c] as const)))(
    '/%s/%s answers 200 with open jobs only',
    async (service, city) => {
      const { res, html } = await page(`/${service}/${city}`)
      expect(res.status).toBe(200)
      const ids = jobLinks(html)
      expect(ids.length).toBeGreaterThan(0)
      const open = await jobs(`id IN (${ids.join(',')}) AND valid_through > ?`, instant(new Date()))
      expect(open.length).toBe(ids.length)
    },
  )

  it('never lists a job whose closing moment has passed', async () => {
    const city = await atlanta()
    const open = await jobs(
      "service = 'babysitting-jobs' AND city_id = ? AND valid_through > ?",
      city,
      instant(new Date()),
    )
    const closed = await jobs(
      "service = 'babysitting-jobs' AND city_id = ? AND valid_through <= ?",
      city,
      instant(new Date()),
    )
    expect(closed.length).toBeGreaterThan(0)
    const { html } = await page('/babysitting-jobs/atlanta-ga?sort=newest')
    const listed = jobLinks(html)
    expect(textOf(html)).toContain(`${open.length} open jobs match your filters`)
    for (const job of closed) expect(listed).not.toContain(job.id)
  })

  it('is served from the cache no longer than until the first of its jobs closes', async () => {
    const path = '/babysitting-jobs/atlanta-ga?sort=newest'
    const [first] = jobLinks((await settled(path)).body)
    if (first === undefined) throw new Error('no job listed')
    // The newest job now closes in an hour; its data changed, so ops purge the city's pages.
    const closes = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000)
    await onEntityShard('job', first, (db) => [
      db.prepare('UPDATE jobs SET valid_through = ? WHERE id = ?').bind(instant(closes), first),
    ])
    await purge({ tags: ['city:atlanta-ga'] })
    const stored = await settled(path)
    expect(stored.res.headers.get('expires')).toBe(closes.toUTCString())
    expect(jobLinks((await settled(path)).body)).toContain(first)

    // The hour passes for an isolate of its own, which has served the stored copy: what an
    // isolate knows of the purges keeps the time it read them, and would leave the file's shared
    // isolate an hour ahead of the tests after this one.
    const { worker } = anIsolate()
    expect((await settledThrough(worker, path, {}, {})).cache).toBe('HIT')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(closes)
    const after = await settledThrough(worker, path, {}, {})
    vi.useRealTimers()
    expect(after.cache).toBe('MISS')
    expect(jobLinks(after.body)).not.toContain(first)
  })

  it.each([
    ['schedule=part-time', (j: JobRow) => j.schedule === 'PART_TIME'],
    ['jobType=business', (j: JobRow) => j.job_type === 'SMB_JOB'],
    ['jobType=family', (j: JobRow) => j.job_type === 'SEEKER_JOB'],
    [
      'hours=10-20',
      (j: JobRow) => j.hours_per_week !== null && j.hours_per_week >= 10 && j.hours_per_week < 20,
    ],
    ['rate=15-20', (j: JobRow) => j.pay_unit === 'hr' && j.pay_min <= 20 && j.pay_max >= 15],
    ['ages=toddler', (j: JobRow) => (j.ages & 2) === 2],
  ])('filter ?%s to matching open jobs, noindex', async (query, matches) => {
    const open = await jobs(
      "service = 'babysitting-jobs' AND city_id = ? AND valid_through > ?",
      await atlanta(),
      instant(new Date()),
    )
    const expected = open.filter(matches)
    const { res, html } = await page(`/babysitting-jobs/atlanta-ga?${query}`)
    expect(res.status).toBe(200)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(canonicalOf(html)).toBe(`${ORIGIN}/babysitting-jobs/atlanta-ga`)
    const ids = new Set(expected.map((j) => j.id))
    for (const id of jobLinks(html)) expect(ids.has(id)).toBe(true)
    expect(jobLinks(html).length).toBe(Math.min(20, expected.length))
  })

  it('put a job in exactly one hours band: from the lower figure up to but not including the upper', async () => {
    const city = await atlanta()
    const now = instant(new Date())
    // Jobs of exactly 10, 20 and 30 hours a week: each on the edge of two bands.
    const edges = await jobs(
      "service = 'nanny-jobs' AND city_id = ? AND valid_through > ? AND hours_per_week IS NOT NULL ORDER BY id LIMIT 3",
      city,
      now,
    )
    expect(edges.length).toBe(3)
    for (const [i, job] of edges.entries())
      await onEntityShard('job', job.id, (db) => [
        db.prepare('UPDATE jobs SET hours_per_week = ? WHERE id = ?').bind((i + 1) * 10, job.id),
      ])
    await purge({ urls: ['/nanny-jobs/atlanta-ga'] })
    const open = await jobs(
      "service = 'nanny-jobs' AND city_id = ? AND valid_through > ? AND hours_per_week IS NOT NULL",
      city,
      now,
    )
    const counts: number[] = []
    for (const [band, from, below] of [
      ['under-10', 0, 10],
      ['10-20', 10, 20],
      ['20-30', 20, 30],
      ['30-plus', 30, Infinity],
    ] as const) {
      const expected = open.filter(
        (j) => (j.hours_per_week ?? -1) >= from && (j.hours_per_week ?? -1) < below,
      ).length
      const text = textOf((await page(`/nanny-jobs/atlanta-ga?hours=${band}`)).html)
      const shown = /(\d+) open jobs? match(?:es)? your filters/.exec(text)?.[1] ?? '0'
      expect({ band, shown: Number(shown) }).toEqual({ band, shown: expected })
      counts.push(expected)
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(open.length)
  })

  it.each(['schedule=sometimes', 'jobType=robot', 'hours=100', 'rate=1-2', 'sort=oldest'])(
    'answer ?%s with 400',
    async (query) => {
      expect((await page(`/babysitting-jobs/atlanta-ga?${query}`)).res.status).toBe(400)
    },
  )

  it('count the open jobs live, in the description and for the thin rule, before the stats catch up', async () => {
    const now = instant(new Date())
    // A listing the stats call indexable, all of whose counted jobs are still open.
    // Each shard holds its own cities' stats and jobs: the first of every shard's first.
    const [listing] = (
      await fromShards<{ service: string; cityId: number; slug: string; jobs: number }>(
        `SELECT s.service, s.city_id AS cityId, c.slug, s.jobs FROM job_city_stats s
           JOIN cities c ON c.id = s.city_id
          WHERE s.jobs >= 5 AND c.slug != 'atlanta-ga'
            AND s.jobs = (SELECT COUNT(*) FROM jobs j
                           WHERE j.service = s.service AND j.city_id = s.city_id AND j.valid_through > ?)
          ORDER BY s.jobs, c.slug LIMIT 1`,
        now,
      )
    ).sort((a, b) => a.jobs - b.jobs || (a.slug < b.slug ? -1 : 1))
    if (!listing) throw new Error('no listing of five open jobs or more')
    const path = `/${listing.service}/${listing.slug}`
    expect(robotsOf((await page(path)).html)).toBe('index,follow')
    // All but four close now; the stats still count them until the cron runs.
    await shardOf(listing.slug)
      .prepare(
        `UPDATE jobs SET valid_through = ? WHERE id IN (
         SELECT id FROM jobs WHERE service = ? AND city_id = ? AND valid_through > ?
          ORDER BY id LIMIT ?)`,
      )
      .bind(
        instant(new Date(Date.now() - 60_000)),
        listing.service,
        listing.cityId,
        now,
        listing.jobs - 4,
      )
      .run()
    await purge({ urls: [path] })
    const { res, html } = await page(path)
    expect(jobLinks(html).length).toBe(4)
    expect(textOf(html)).toContain('4 open jobs near you')
    expect(html).toMatch(/<meta name="description" content="4 open /)
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(res.headers.get('x-seo-gate')).toBe('noindex; reason=thin')
  })

  it('answer an unknown city with 404 and no D1 statement', async () => {
    const { res, statements } = await statementsOnceWarm('/nanny-jobs/atlantis-ga')
    expect([res.status, statements]).toEqual([404, []])
  })
})

describe('job details', () => {
  async function openJob(): Promise<JobRow> {
    const [job] = await jobs(
      "valid_through > ? AND pay_unit = 'hr' AND job_type = 'SEEKER_JOB' ORDER BY id LIMIT 1",
      instant(new Date()),
    )
    if (!job) throw new Error('no open job')
    return job
  }

  it('show the job and state it as JobPosting JSON-LD that matches the visible text', async () => {
    const job = await openJob()
    const { res, html } = await page(`/job/${job.title_slug}-${job.id}`)
    expect(res.status).toBe(200)
    const text = textOf(html)
    const posting = jsonLd(html).find((d) => d['@type'] === 'JobPosting')
    expect(posting).toMatchObject({
      title: job.title,
      description: job.description,
      datePosted: job.posted_at.slice(0, 10),
      validThrough: job.valid_through,
      identifier: { '@type': 'PropertyValue', value: String(job.id) },
      hiringOrganization: { '@type': 'Organization', name: 'Private family' },
      jobLocation: {
        '@type': 'Place',
        address: { addressLocality: 'Atlanta', addressRegion: 'GA', addressCountry: 'US' },
      },
      baseSalary: {
        currency: 'USD',
        value: { minValue: job.pay_min, maxValue: job.pay_max, unitText: 'HOUR' },
      },
      directApply: false,
    })
    for (const value of [
      job.title,
      job.description,
      'Private family',
      'Atlanta, GA',
      `$${job.pay_min}–$${job.pay_max}/hr`,
    ]) {
      expect(text).toContain(value)
    }
    const date = (iso: string) =>
      new Date(iso).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      })
    expect(text).toContain(`Posted ${date(job.posted_at)}`)
    expect(text).toContain(`Apply by ${date(job.valid_through)}`)
    const family = JOB_SERVICES.find((j) => j.slug === job.service)?.title.toLowerCase() ?? ''
    expect(html).toContain(`>See all ${family} in Atlanta</a>`)
  })

  it("never show a family's name: not on its job page, its JSON-LD, the listing that shows it or that listing's data", async () => {
    const listing = '/babysitting-jobs/atlanta-ga?jobType=family'
    const { html: listed } = await page(listing)
    const [job] = await jobs(
      `id IN (${jobLinks(listed).join(',')}) AND job_type = 'SEEKER_JOB' ORDER BY id LIMIT 1`,
    )
    if (!job) throw new Error('no family job listed')
    const { res, html } = await page(`/job/${job.title_slug}-${job.id}`)
    expect(res.status).toBe(200)
    expect(textOf(html)).toContain('Private family')
    const data = await fetchPage(`/_data${listing}`, { headers: { 'x-data-request': '1' } })
    expect(data.status).toBe(200)
    for (const body of [html, textOf(html), listed, textOf(listed), await data.text()]) {
      expect(body).not.toContain(job.employer)
    }
  })

  it('name a business that posts a job, on its page and as its hiringOrganization', async () => {
    const [job] = await jobs(
      "valid_through > ? AND job_type = 'SMB_JOB' ORDER BY id LIMIT 1",
      instant(new Date()),
    )
    if (!job) throw new Error('no open business job')
    const { html } = await page(`/job/${job.title_slug}-${job.id}`)
    expect(textOf(html)).toContain(job.employer)
    expect(jsonLd(html).find((d) => d['@type'] === 'JobPosting')).toMatchObject({
      hiringOrganization: { '@type': 'Organization', name: job.employer },
    })
  })

  it('answer 410 from the moment the job closes, with open jobs nearby and no JSON-LD', async () => {
    const job = await openJob()
    const path = `/job/${job.title_slug}-${job.id}`
    // The job now closes in an hour; its data changed, so ops purge it.
    const closes = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000)
    await onEntityShard('job', job.id, (db) => [
      db.prepare('UPDATE jobs SET valid_through = ? WHERE id = ?').bind(instant(closes), job.id),
    ])
    await purge({ tags: [`job:${job.id}`] })
    expect((await settled(path)).res.status).toBe(200)
    const cached = await settled(path)
    expect([cached.res.status, cached.cache]).toEqual([200, 'HIT'])

    // The clock moved on to the job's last open millisecond, then to its closing moment.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(closes.getTime() - 1)
    expect((await settled(path)).res.status).toBe(200)
    vi.setSystemTime(closes)
    const { res, body: html } = await settled(path)
    vi.useRealTimers()
    expect(res.status).toBe(410)
    expect(jsonLd(html)).toEqual([])
    expect(robotsOf(html)).toBe('noindex,follow')
    expect(textOf(html)).toContain('no longer takes applications')
    expect(html).toContain(`href="/${job.service}/atlanta-ga"`)
    const nearby = jobLinks(html)
    expect(nearby.length).toBeGreaterThan(0)
    const stillOpen = await jobs(
      `id IN (${nearby.join(',')}) AND valid_through > ?`,
      instant(new Date()),
    )
    expect(stillOpen.length).toBe(nearby.length)
  })

  /** The jobs a closed job's page links to, as rows, and the page's status. */
  async function pointedTo(job: JobRow): Promise<{ status: number; linked: JobRow[] }> {
    await purge({ tags: [`job:${job.id}`] })
    const { res, html } = await page(`/job/${job.title_slug}-${job.id}`)
    const ids = jobLinks(html)
    const rows = ids.length ? await jobs(`id IN (${ids.join(',')})`) : []
    return { status: res.status, linked: ids.map((id) => rows.find((r) => r.id === id) as JobRow) }
  }

  async function closeAll(where: string, ...params: (string | number)[]) {
    const past = instant(new Date(Date.now() - 60_000))
    for (const [n, db] of shards().entries()) {
      const { results } = await db
        .prepare(
          `UPDATE jobs SET valid_through = ? WHERE valid_through > ? AND ${where} RETURNING id`,
        )
        .bind(past, instant(new Date()), ...params)
        .all<{ id: number }>()
      await listInDirectory(n, { jobs: results.map((r) => r.id) })
    }
  }

  it('point a closed job whose city has no other open job of its family to that family nearby', async () => {
    const now = instant(new Date())
    // A closed job in a place near Atlanta whose family Atlanta still has open jobs of.
    const families = [
      ...new Set(
        (await jobs('city_id = ? AND valid_through > ?', await atlanta(), now)).map(
          (j) => j.service,
        ),
      ),
    ]
    const [job] = await jobs(
      `valid_through <= ? AND city_id IN (SELECT id FROM cities WHERE state_code = 'GA' AND slug != 'atlanta-ga')
         AND service IN (SELECT value FROM json_each(?))
       ORDER BY id LIMIT 1`,
      now,
      JSON.stringify(families),
    )
    if (!job) throw new Error('no closed job near Atlanta')
    await closeAll('service = ? AND city_id = ?', job.service, job.city_id)
    const { status, linked } = await pointedTo(job)
    expect(status).toBe(410)
    expect(linked.length).toBeGreaterThan(0)
    expect(linked[0]?.service).toBe(job.service)
    for (const other of linked) {
      expect(other.valid_through > instant(new Date())).toBe(true)
      expect(other.city_id).not.toBe(job.city_id)
    }
  })

  it('and with none of its family open near either, to the open jobs of other families', async () => {
    const now = instant(new Date())
    const [job] = await jobs(
      `valid_through <= ? AND city_id = ? AND service != 'babysitting-jobs' ORDER BY id LIMIT 1`,
      now,
      await atlanta(),
    )
    if (!job) throw new Error('no closed job in Atlanta')
    await closeAll('service = ?', job.service)
    const { status, linked } = await pointedTo(job)
    expect(status).toBe(410)
    expect(linked.length).toBe(6)
    for (const other of linked) {
      expect(other.valid_through > instant(new Date())).toBe(true)
      expect(other.service).not.toBe(job.service)
      // The city's own jobs of other families come before those of the cities around.
      expect(other.city_id).toBe(job.city_id)
    }
  })

  it('answer a stale name with 301 and an unknown id with 404', async () => {
    const job = await openJob()
    const res = await fetchPage(`/job/old-title-${job.id}`)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(`/job/${job.title_slug}-${job.id}`)
    const unknown = await statementsOnceWarm('/job/nothing-0')
    expect([unknown.res.status, unknown.statements]).toEqual([404, []])
    // Once an isolate has read a job (one no test purged just now), any other name is
    // redirected with no D1 statement.
    const [newest] = await jobs('valid_through > ? ORDER BY id DESC LIMIT 1', instant(new Date()))
    if (!newest) throw new Error('no open job')
    const canonical = `/job/${newest.title_slug}-${newest.id}`
    const isolate = anIsolate()
    await withClockStill(async () => {
      await warm(isolate)
      await isolate.settled(canonical)
      const known = await isolate.statements(`/job/a-made-up-title-${newest.id}`)
      expect([known.res.status, known.cache, known.statements]).toEqual([301, 'BYPASS', []])
      expect(known.res.headers.get('location')).toBe(canonical)
    })
  })

  it("answer a removed job with 404 from control's directory read alone, the gate rebuilt or not", async () => {
    const [job] = await jobs('id > 1 AND id < (SELECT MAX(id) FROM jobs) ORDER BY id LIMIT 1')
    if (!job) throw new Error('no job between the first and the last')
    // As a removal applies: the job's rows go from its shard, its row from the directory.
    await onEntityShard('job', job.id, (db) => [
      db.prepare('DELETE FROM jobs WHERE id = ?').bind(job.id),
    ])
    await env.CONTROL.prepare('DELETE FROM job_directory WHERE id = ?').bind(job.id).run()
    await purge({ tags: [`job:${job.id}`] })
    // Positive and below the highest id: neither the shortcut for ids under 1 nor the
    // watermark decides; the gate holds no ids, so the directory does, and no shard is read.
    await rebuildGate()
    const { res, statements } = await statementsOnceWarm(`/job/${job.title_slug}-${job.id}`)
    expect(res.status).toBe(404)
    // The directory's one read, and no read of a job's rows on any shard (the purges are
    // control's, read as ever after a purge).
    expect(statements.filter((sql) => sql.includes('job_directory'))).toHaveLength(1)
    expect(statements.filter((sql) => /\bFROM jobs\b/.test(sql))).toEqual([])
  })
})
