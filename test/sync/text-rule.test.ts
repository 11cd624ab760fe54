import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { importLines } from '../../scripts/import/import-lines'
import { shardedTarget } from '../../scripts/import/sharded'
import { databasesOf } from '../../src/data/databases'
import { messageProblems } from '../../src/sync/messages'
import { anIsolate, ORIGIN } from '../support/fetch-page'
import { cityId, aProvider, onEntityShard } from '../support/builders'
import { fromShards } from '../support/databases'
import type { Draft } from './examples'
import { example } from './examples'

// The text rule at each door of the catalog (the contract, so the endpoint, the queue and the
// import), and its last guard where stored text reaches a page.

/** Any character the rule refuses, as a page must never carry it (a line feed and tab aside). */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const REFUSED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

/** A provider message with this headline and bio, unchecked: the test checks it. */
function provider(headline: string, bio = 'Caring and patient.\nTen years with toddlers.') {
  const m = example<Draft>('provider.upserted')
  m.id = 950000001
  Object.assign(m.entity, { headline, bio })
  return m
}

describe('the text rule at the catalog’s doors', () => {
  it('refuses a control character, a bidi control, a stray joiner, a lone surrogate, with field and position', () => {
    expect(messageProblems(provider('Nanny\u0000 of ten years'))).toEqual([
      'entity.headline: has a control character (U+0000) at character 6',
    ])
    expect(messageProblems(provider('Bell\u0007 then \u001b[31mred'))).toEqual([
      'entity.headline: has a control character (U+0007) at character 5',
    ])
    expect(messageProblems(provider('Fine', 'Loves \ud800 kids'))).toEqual([
      'entity.bio: has a lone surrogate (U+D800) at character 7',
    ])
    expect(messageProblems(provider('abc \u202egnp.exe'))).toEqual([
      'entity.headline: has a bidi control (U+202E) at character 5',
    ])
    expect(messageProblems(provider('\u200dNanny'))).toEqual([
      'entity.headline: has a zero-width joiner outside a word (U+200D) at character 1',
    ])
  })

  it('keeps line breaks in paragraphs only, and takes what people write', () => {
    expect(messageProblems(provider('Two\nlines'))).toEqual([
      'entity.headline: has a control character (U+000A) at character 4',
    ])
    const bio = 'مرحبا، أنا مربية أطفال 👩‍👧\nZoë O’Brien-Núñez 😀, می‌خواهم'
    expect(messageProblems(provider('Nanny in Atlanta 👍🏽', bio))).toEqual([])
  })

  it('refuses it at POST /__ops/catalog with 422, the field and the position', async () => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/__ops/catalog`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-sync-token', 'content-type': 'application/json' },
        body: JSON.stringify([provider('NUL\u0000here')]),
      }),
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      refused: [
        {
          index: 0,
          reasons: ['entity.headline: has a control character (U+0000) at character 4'],
        },
      ],
    })
  })

  it('rejects such a line of an import with the field and position, importing the rest', async () => {
    const rejected: string[] = []
    const lines = [provider('Headline\u0007'), provider('A fine headline')].map((m, i) => ({
      line: i + 1,
      text: JSON.stringify({ ...m, id: 950000101 + i }),
    }))
    // As `npm run import` does, the target first reads back the catalog's cities and providers.
    const target = shardedTarget(databasesOf(env))
    await target.resume()
    const counts = await importLines({
      target,
      lines,
      file: null,
      reject: (line, reason) => rejected.push(`${line}: ${reason}`),
    })
    expect(rejected).toEqual([
      '1: entity.headline: has a control character (U+0007) at character 9',
    ])
    expect(counts.applied).toBe(1)
    expect(await fromShards('SELECT id FROM providers WHERE id >= 950000101')).toEqual([
      { id: 950000102 },
    ])
    for (const shard of databasesOf(env).shards)
      await shard.prepare('DELETE FROM providers WHERE id >= 950000101').run()
  })
})

describe('the last guard', () => {
  it('shows a row stored around the rule without its control characters', async () => {
    const p = await aProvider({ cityId: await cityId('atlanta-ga'), service: 'babysitters' })
    const raw = 'Bell\u0007 esc\u001b[31m nul\u0000 rlo\u202e c1\u0085 end'
    await onEntityShard('provider', p.id, (db) => [
      db
        .prepare('UPDATE providers SET headline = ?1, bio = ?1, first_name = ?2 WHERE id = ?3')
        .bind(raw, 'Te\u0000st', p.id),
    ])
    const { res, body } = await anIsolate().settled(`/p/test-p-${p.id}`)
    expect(res.status).toBe(200)
    expect(body).toContain('Bell esc[31m nul rlo c1 end')
    expect(REFUSED.exec(body)).toBeNull()
  })
})
