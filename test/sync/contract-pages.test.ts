import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import type { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { findJobService, JOB_SERVICES } from '../../src/catalog/jobs'
import { RANGES } from '../../src/catalog/ranges'
import { SERVICES } from '../../src/catalog/services'
import type { CatalogMessage, MessageKind } from '../../src/sync/messages'
import { MESSAGE_SCHEMAS } from '../../src/sync/messages'
import worker from '../../src/worker'
import { htmlProblems } from '../support/html-validity'
import { anIsolate } from '../support/fetch-page'
import { arbitraryOf, validOf } from '../support/zod-arbitrary'
import { cityId } from '../support/builders'
import { fromShards } from '../support/databases'
import { removeRowsEverywhere } from './examples'

// The contract end to end: random valid messages of every kind, their arbitraries derived from
// the zod schemas (test/support/zod-arbitrary.ts), applied by the worker's own queue consumer;
// then every page they touch answers as docs/pages.md says, each is valid HTML, and every link
// on them answers 200 or a documented redirect.

const NOW = new Date()
const CITIES = [
  { id: await cityId('atlanta-ga'), slug: 'atlanta-ga' },
  { id: await cityId('boston-ma'), slug: 'boston-ma' },
]
const FIRST_ID = 960_000_000

// Names and texts a real catalog has: apostrophes, accents, emoji, right-to-left scripts, long
// bios; the generated words between them.
const NAMES = ["O'Brien", 'Zoë', 'Núñez', 'José', 'Anne-Marie', 'محمد', 'Nguyễn', 'Li', 'Ana 🌻']
const PHRASES = [
  "Loves kids' crafts & outdoor play",
  'Éducatrice bilingue, très patiente 😊',
  'مربية أطفال ذات خبرة، أتحدث العربية والإنجليزية',
  'שמרטפית מנוסה עם המלצות',
  'CPR certified 👩‍⚕️, non-smoker',
  'Line one\nline two',
]
const text = (max: number) =>
  fc
    .oneof(
      fc.constantFrom(...PHRASES, ...NAMES),
      fc
        .array(fc.constantFrom(...PHRASES, 'and', 'weekends', '"quoted"', '<b>not html</b>'), {
          minLength: 1,
          maxLength: 6,
        })
        .map((words) => words.join(' ')),
      fc.constant('Patient, caring, punctual. '.repeat(80).slice(0, 2000)),
    )
    .map(
      (t) =>
        (max < 2000 && t.includes('\n') ? t.replace(/\n/g, ' ') : t).slice(0, max).trim() || 'Care',
    )

const derive = (kind: MessageKind, overrides: Record<string, fc.Arbitrary<unknown>>) => {
  const schema: z.ZodType = MESSAGE_SCHEMAS[kind]
  return validOf(schema, arbitraryOf(schema, { text, overrides })) as fc.Arbitrary<CatalogMessage>
}

/** Up to `most` codes of `list`: what a listing or a job may name. */
const codesOf = (list: string[], { maxLength }: { maxLength: number }) =>
  fc.subarray(list, { maxLength: Math.min(maxLength, list.length) })

const cityIds = fc.constantFrom(...CITIES.map((c) => c.id))
const providerIds = [FIRST_ID + 1, FIRST_ID + 2, FIRST_ID + 3]

/** A listing of one of the services, with codes of that service. */
const offered = (id: number) =>
  fc.constantFrom(...SERVICES).chain((s) =>
    derive('provider-service.offered', {
      id: fc.constant(id),
      service: fc.constant(s.slug),
      'entity.ages': codesOf(
        s.ages.map((a) => a.code),
        { maxLength: 3 },
      ),
      'entity.options': codesOf(
        s.options.map((o) => o.code),
        { maxLength: 3 },
      ),
      'entity.schedules': codesOf(
        s.schedules.map((o) => o.code),
        { maxLength: 3 },
      ),
    }),
  )

const job = (kind: 'job.upserted' | 'job.closed') =>
  fc.constantFrom(...JOB_SERVICES).chain((j) =>
    derive(kind, {
      id: fc.constant(FIRST_ID + 11),
      'entity.service': fc.constant(j.slug),
      'entity.cityId': cityIds,
      'entity.ages': codesOf(
        j.service.ages.map((a) => a.code),
        { maxLength: 2 },
      ),
    }),
  )

/** A version newer than `message`'s, which is lowered by one if it drew the last there is. */
function newerThan(message: { version: number }): number {
  message.version = Math.min(message.version, RANGES.version.max - 1)
  return message.version + 1
}

/**
 * One change of every kind around three providers: two of the same name in one city, the third
 * with no service; a review, a job (open, or closed), an activity, and some removals.
 */
const scenario = fc
  .tuple(
    fc.tuple(
      ...providerIds.map((id) =>
        derive('provider.upserted', { id: fc.constant(id), 'entity.cityId': cityIds }),
      ),
    ),
    offered(providerIds[0] ?? 0),
    offered(providerIds[1] ?? 0),
    fc.oneof(job('job.upserted'), job('job.closed')),
    derive('activity.upserted', {
      id: fc.constant(FIRST_ID + 21),
      'entity.subcategory': fc.constant(null),
      'entity.cityId': fc.option(cityIds, { nil: null }),
    }),
    derive('city.added', { id: fc.constant(FIRST_ID + 31) }),
    fc.boolean(),
  )
  .chain(([providers, first, second, aJob, activity, city, removeThird]) =>
    derive('review.added', {
      id: fc.constant(FIRST_ID + 41),
      'entity.providerId': fc.constant(first.id),
      'entity.service': fc.constant((first as { service: string }).service),
    }).map((review) => {
      const [a, b, c] = providers as Extract<CatalogMessage, { kind: 'provider.upserted' }>[]
      if (a && b) Object.assign(b.entity, sameName(a.entity))
      // A name in Arabic script alone: its slug keeps no letter, its URL is its id.
      if (c)
        Object.assign(c.entity, {
          firstName: 'محمد',
          lastName: 'علي',
          businessType: 'CAREGIVER',
          businessName: null,
        })
      const later: CatalogMessage[] = [
        {
          kind: 'provider-service.withdrawn',
          id: second.id,
          service: (second as { service: string }).service,
          version: newerThan(second),
        },
        { kind: 'review.removed', id: review.id, version: newerThan(review) },
        { kind: 'activity.removed', id: activity.id, version: newerThan(activity) },
      ]
      if (removeThird)
        later.push({
          kind: 'provider.removed',
          id: providerIds[2] ?? 0,
          version: c ? newerThan(c) : 1,
        })
      return {
        first: [city, ...providers, first, second, aJob, activity, review],
        later,
        removeThird,
      }
    }),
  )

const sameName = (p: {
  firstName: string
  lastName: string
  cityId: number
  businessType: string
  businessName: string | null
}) => ({
  firstName: p.firstName,
  lastName: p.lastName,
  cityId: p.cityId,
  businessType: p.businessType,
  businessName: p.businessName,
})

/** Applies `messages` through the worker's queue consumer, as the queue delivers a batch. */
async function deliver(messages: CatalogMessage[]) {
  const batch = createMessageBatch(
    'catalog-changes',
    messages.map((body, i) => ({ id: `m${i}`, timestamp: NOW, attempts: 1, body })),
  )
  const ctx = createExecutionContext()
  await worker.queue(batch, env, ctx)
  await waitOnExecutionContext(ctx)
}

const hrefs = (html: string) =>
  [...html.matchAll(/<a [^>]*href="(\/[^"#]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'))
const checkedLinks = new Map<string, number>()

describe('the contract, end to end', () => {
  it('serves every page a valid change touches as documented, valid, with links that answer', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ first, later, removeThird }) => {
        try {
          await deliver(first)
          await deliver(later)
          const isolate = anIsolate()
          const rows = {
            results: (
              await fromShards<{ id: number; slug: string }>(
                'SELECT id, name_slug AS slug FROM providers WHERE id >= ? ORDER BY id',
                FIRST_ID,
              )
            ).sort((a, b) => a.id - b.id),
          }
          const expected = new Map<string, number[]>()
          for (const r of rows.results)
            expected.set(`/p/${r.slug ? `${r.slug}-` : ''}${r.id}`, [200])
          if (removeThird) expected.set(`/p/${providerIds[2] ?? 0}`, [410])
          expected.set(`/p/made-up-name-${providerIds[0] ?? 0}`, [301])
          const j = first.find((m) => m.kind.startsWith('job.')) as Extract<
            CatalogMessage,
            { kind: 'job.upserted' }
          >
          const [jobRow] = await fromShards<{ slug: string }>(
            'SELECT title_slug AS slug FROM jobs WHERE id = ?',
            j.id,
          )
          expected.set(`/job/${jobRow?.slug ? `${jobRow.slug}-` : ''}${j.id}`, [200, 410])
          const listing = first.find((m) => m.kind === 'provider-service.offered') as {
            service: string
          }
          for (const c of CITIES) {
            expected.set(`/${listing.service}/${c.slug}`, [200])
            expected.set(`/local/${c.slug}`, [200])
          }
          const js = findJobService(j.entity.service)
          if (js) expected.set(`/${js.slug}/${CITIES[0]?.slug ?? ''}`, [200])
          for (const [path, statuses] of expected) {
            const { res, body } = await isolate.settled(path)
            expect([path, statuses.includes(res.status)]).toEqual([path, true])
            if (res.status === 301) continue
            expect([path, await htmlProblems(body)]).toEqual([path, []])
            for (const href of hrefs(body)) {
              if (checkedLinks.has(href)) continue
              const link = await isolate.settled(href)
              checkedLinks.set(href, link.res.status)
              expect([path, href, [200, 301, 308].includes(link.res.status)]).toEqual([
                path,
                href,
                true,
              ])
            }
          }
        } finally {
          await removeRowsEverywhere(FIRST_ID, NOW)
        }
      }),
      { numRuns: 4 },
    )
    // About 30 s; the ceiling leaves room for a machine busy with other test files.
  }, 120_000)
})
