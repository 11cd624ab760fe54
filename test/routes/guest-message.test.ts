import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  MAX_STORED_MESSAGES,
  MESSAGE_KEEP_DAYS,
  MESSAGES_PER_NETWORK_PROVIDER_DAY,
  MESSAGES_PER_PROVIDER_DAY,
  MESSAGES_PER_VISITOR_HOUR,
  OTHER_VISITORS_PER_NETWORK_HOUR,
} from '../../src/data/guest-messages'
import { MAX_MESSAGE, MAX_NAME, MESSAGE_FORM_BYTES } from '../../src/queries/message-form'
import worker from '../../src/worker'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, cardLinks, ORIGIN, robotsOf, textOf } from '../support/fetch-page'
import { held, withStatementFaults } from '../support/with-faults'
import { shards } from '../support/databases'

// Requests go through an isolate of this file's own, fresh after each change to the flag store.
let isolate: Isolate = anIsolate()
const DEVICE = '55555555-5555-4555-8555-555555555555'
let profile = ''
let profiles: string[] = []
// Each test posts from a network of its own: the rate limiter's counts outlive a test.
let lastAddress = 0
let address = ''

async function messaging(on: boolean) {
  if (on) await env.FLAGS.put('flags', '{"flags":{"embeddedGuestMessaging":{"state":"ENABLED"}}}')
  else await env.FLAGS.delete('flags')
  isolate = anIsolate()
}

beforeEach(async () => {
  await messaging(true)
  profiles = cardLinks((await isolate.page('/babysitters/atlanta-ga')).html)
  ;[profile = ''] = profiles
  address = `198.51.100.${++lastAddress}`
})
afterEach(async () => {
  await messaging(false)
  await env.CONTROL.prepare('DELETE FROM guest_messages').run()
})

/** A form post as the profile's form sends it, from this site's page by default. */
function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return isolate.fetchPage(path, postInit(fields, headers))
}

function postInit(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      cookie: `care_did=${DEVICE}`,
      'cf-connecting-ip': address,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  }
}

const GOOD = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  message: 'Hello! Are you free on Saturday evenings in March? Unique-marker-7731.',
}

const stored = () =>
  env.CONTROL.prepare('SELECT provider_id, device_id, name, email, body FROM guest_messages').all<{
    provider_id: number
    device_id: string
    name: string
    email: string
    body: string
  }>()

describe('embedded guest messaging', () => {
  it('offers a message form on a profile that posts without JavaScript; off, no form', async () => {
    const { html } = await isolate.page(profile)
    expect(html).toContain(`<form class="message-form" action="${profile}/message" method="post">`)
    for (const name of ['name', 'email', 'message']) expect(html).toContain(`name="${name}"`)
    await messaging(false)
    const off = await isolate.page(profile)
    expect(off.html).not.toContain('class="message-form"')
    expect((await post(`${profile}/message`, GOOD)).status).toBe(404)
  })

  it('stores a message with the provider id and care_did, and answers 303 to a confirmation', async () => {
    const res = await post(`${profile}/message`, GOOD)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${profile}/message/sent`)
    expect(res.headers.get('cache-control')).toMatch(/^(private|no-store)/)
    const id = Number(/-(\d+)$/.exec(profile)?.[1])
    expect((await stored()).results).toEqual([
      {
        provider_id: id,
        device_id: DEVICE,
        name: GOOD.name,
        email: GOOD.email,
        body: GOOD.message,
      },
    ])
    const sent = await isolate.page(`${profile}/message/sent`, {
      headers: { cookie: `care_did=${DEVICE}` },
    })
    expect(sent.res.status).toBe(200)
    expect(sent.res.headers.get('cache-control')).toBe('private, no-store')
    expect(robotsOf(sent.html)).toMatch(/^noindex/)
    expect(textOf(sent.html)).toContain('Message sent')
    // Never shown publicly: not on the confirmation, not on the profile.
    for (const html of [sent.html, (await isolate.page(profile)).html])
      expect(html).not.toContain('Unique-marker-7731')
  })

  it('gives the form back with what is wrong, field by field, and everything typed', async () => {
    const typed = { name: 'Dana <b>W</b>', email: 'dana-at-example', message: 'Hi' }
    const res = await post(`${profile}/message`, typed)
    expect(res.status).toBe(422)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('value="Dana &lt;b&gt;W&lt;/b&gt;"')
    expect(html).toContain('value="dana-at-example"')
    expect(html).toContain('>Hi</textarea>')
    const text = textOf(html)
    expect(text).toContain('Enter an email address like name@example.com.')
    expect(text).toContain('Write a message of at least 10 characters.')
    expect(html).toContain('aria-describedby="message-email-error"')
    expect((await stored()).results).toEqual([])
  })

  it('refuses a post from another site, or with no Origin, before reading anything', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const res = await post(`${profile}/message`, GOOD, { origin })
      expect(res.status).toBe(403)
    }
    const none = await isolate.fetchPage(`${profile}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(GOOD).toString(),
    })
    expect(none.status).toBe(403)
    expect((await stored()).results).toEqual([])
  })

  it(`takes ${MESSAGES_PER_VISITOR_HOUR} messages an hour from a visitor, then 429 with the form kept`, async () => {
    expect(profiles.length).toBeGreaterThan(MESSAGES_PER_VISITOR_HOUR)
    for (const to of profiles.slice(0, MESSAGES_PER_VISITOR_HOUR))
      expect((await post(`${to}/message`, GOOD)).status).toBe(303)
    const res = await post(`${profiles[MESSAGES_PER_VISITOR_HOUR] ?? ''}/message`, GOOD)
    expect(res.status).toBe(429)
    const html = await res.text()
    expect(textOf(html)).toContain(
      `You have sent ${MESSAGES_PER_VISITOR_HOUR} messages in the last hour. Yours was not sent`,
    )
    expect(html).toContain('Unique-marker-7731')
    // Another visitor is not held back.
    const other = await post(`${profile}/message`, GOOD, {
      cookie: 'care_did=66666666-6666-4666-8666-666666666666',
    })
    expect(other.status).toBe(303)
  })

  it('asks for the cookie again when the browser sent none, keeping what was typed', async () => {
    const res = await post(`${profile}/message`, GOOD, { cookie: '' })
    expect(res.status).toBe(422)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('care_did='))).toBe(true)
    expect(await res.text()).toContain('Unique-marker-7731')
    expect((await stored()).results).toEqual([])
  })

  it.each([
    ['a JSON body', 415, { 'content-type': 'application/json' }, '{"name":"x"}'],
    ['a multipart body', 415, { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['bytes that are not UTF-8', 422, {}, new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff])],
  ] as const)('answers %s with %i, never a 500', async (_, status, headers, body) => {
    const res = await isolate.fetchPage(`${profile}/message`, {
      method: 'POST',
      headers: {
        origin: ORIGIN,
        cookie: `care_did=${DEVICE}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body,
    })
    expect(res.status).toBe(status)
    await res.body?.cancel()
  })

  it('takes a message of 2,000 characters in any script: the body cap is the form’s own limits in bytes', async () => {
    const message = '中'.repeat(MAX_MESSAGE)
    const res = await post(`${profile}/message`, { ...GOOD, name: '李'.repeat(MAX_NAME), message })
    expect(res.status).toBe(303)
    expect((await stored()).results[0]?.body).toBe(message)
  })

  it('gives a body too large for the form back as the form, with what fitted of its text', async () => {
    const res = await post(`${profile}/message`, {
      ...GOOD,
      message: `${GOOD.message} ${'中'.repeat(MESSAGE_FORM_BYTES / 9)}`,
    })
    expect(res.status).toBe(413)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = await res.text()
    expect(textOf(html)).toContain('Your message is longer than this form takes')
    expect(html).toContain('value="Dana Whitfield"')
    expect(html).toContain('Unique-marker-7731')
    expect((await stored()).results).toEqual([])
  })

  it.each([
    ['name', 'a right-to-left override', 'Dana \u202eeltihW'],
    ['name', 'a zero-width space', 'Dana\u200bWhitfield'],
    ['email', 'an escape', 'dana\u001b@example.com'],
    ['email', 'a NUL', 'dana@exam\u0000ple.com'],
  ])(
    'refuses a %s with %s, saying so next to the field and keeping the rest',
    async (field, _, value) => {
      const res = await post(`${profile}/message`, { ...GOOD, [field]: value })
      expect(res.status).toBe(422)
      const html = await res.text()
      expect(html).toContain(`id="message-${field}-error"`)
      expect(textOf(html)).toContain('has an invisible or control character in it')
      expect(html).toContain('Unique-marker-7731')
      expect((await stored()).results).toEqual([])
    },
  )

  it('refuses a message with a control character, naming where it is, and keeps its text', async () => {
    const message = 'Hello! Are you free\u0007 on Saturdays? Unique-marker-7731.'
    const res = await post(`${profile}/message`, { ...GOOD, message })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('id="message-message-error"')
    expect(textOf(html)).toContain('a control character, U+0007) at character 20')
    expect(html).toContain('Unique-marker-7731')
    expect((await stored()).results).toEqual([])
  })

  it('keeps the line breaks and joined emoji of a message', async () => {
    const message = 'Hello!\r\nWe are a family 👨‍👩‍👧 of three. Saturdays?'
    expect((await post(`${profile}/message`, { ...GOOD, message })).status).toBe(303)
    expect((await stored()).results[0]?.body).toBe(
      'Hello!\nWe are a family 👨‍👩‍👧 of three. Saturdays?',
    )
  })

  it('takes only POST at the form’s path, and 404s an unknown provider', async () => {
    const get = await isolate.fetchPage(`${profile}/message`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect((await post('/p/nobody-999999999/message', GOOD)).status).toBe(404)
  })
})

describe('what the message form stores is bounded', () => {
  const count = async () =>
    (await env.CONTROL.prepare('SELECT COUNT(*) AS n FROM guest_messages').first<{ n: number }>())
      ?.n
  const asSomeoneElse = () => ({ cookie: `care_did=${crypto.randomUUID()}` })

  it('counts a network, not the visitor ids it makes up: 20 fresh ids store 3 messages', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) {
      const res = await post(`${profile}/message`, GOOD, { cookie: asSomeoneElse().cookie })
      statuses.push(res.status)
      if (res.status === 429) expect(textOf(await res.text())).toContain('from your network')
      else await res.body?.cancel()
    }
    expect(statuses.slice(0, MESSAGES_PER_NETWORK_PROVIDER_DAY)).toEqual([303, 303, 303])
    expect(statuses.slice(MESSAGES_PER_NETWORK_PROVIDER_DAY).every((s) => s === 429)).toBe(true)
    expect(await count()).toBe(MESSAGES_PER_NETWORK_PROVIDER_DAY)
  })

  it('stores at most a few visitors’ messages per network however many providers it writes to', async () => {
    const statuses: number[] = []
    // Round the providers, so that no one provider's cap for a network comes first.
    for (let i = 0; i < 5; i++)
      for (const to of profiles.slice(0, 5)) {
        const res = await post(`${to}/message`, GOOD, { cookie: asSomeoneElse().cookie })
        statuses.push(res.status)
        await res.body?.cancel()
      }
    // Every post is a new visitor: one is refused once OTHER_VISITORS_PER_NETWORK_HOUR others
    // have sent from its network this hour, so the first that many are stored, and no more.
    const taken = OTHER_VISITORS_PER_NETWORK_HOUR
    expect(statuses.slice(0, taken)).toEqual(Array<number>(taken).fill(303))
    expect(statuses.slice(taken).every((s) => s === 429)).toBe(true)
    expect(await count()).toBe(taken)
  })

  it('refuses a network flooding past the MESSAGE_SENDERS rate limit before any write', async () => {
    const problems: string[] = []
    for (let i = 0; i < 30 && !problems.length; i++) {
      const stored = await count()
      const { res, body, statements } = await isolate.statements(
        `${profiles[i % profiles.length] ?? ''}/message`,
        postInit(GOOD, { cookie: asSomeoneElse().cookie }),
      )
      const text = textOf(body)
      if (text.includes('in the last minute')) {
        expect(res.status).toBe(429)
        expect(res.headers.get('retry-after')).toBe('60')
        // Refused before the table was read or written: no statement on it, nothing stored.
        expect(statements.filter((sql) => /guest_messages/i.test(sql))).toEqual([])
        expect(await count()).toBe(stored)
        problems.push(text)
      }
    }
    expect(problems).toHaveLength(1)
  })

  it('does not let one network’s spam lock out a provider: a real visitor elsewhere still sends', async () => {
    for (let i = 0; i < MESSAGES_PER_PROVIDER_DAY; i++) {
      const res = await post(`${profile}/message`, GOOD, { cookie: asSomeoneElse().cookie })
      await res.body?.cancel()
    }
    const real = await post(`${profile}/message`, GOOD, {
      'cf-connecting-ip': '2001:db8:26:1::7',
      cookie: 'care_did=77777777-7777-4777-8777-777777777777',
    })
    expect(real.status).toBe(303)
  })

  it('tells a visitor when the provider has had its day’s messages, not that they sent too many', async () => {
    const id = Number(/-(\d+)$/.exec(profile)?.[1])
    await env.CONTROL.prepare(
      `INSERT INTO guest_messages (provider_id, device_id, sender, name, email, body, created_at)
       SELECT ?1, 'd' || value, 'ipv4:203.0.113.' || value, 'n', 'e@example.com', 'b', ?2
       FROM json_each(?3)`,
    )
      .bind(
        id,
        new Date().toISOString(),
        JSON.stringify([...Array(MESSAGES_PER_PROVIDER_DAY).keys()]),
      )
      .run()
    const res = await post(`${profile}/message`, GOOD)
    expect(res.status).toBe(429)
    const text = textOf(await res.text())
    expect(text).toContain('has received many messages today and takes no more until tomorrow')
    expect(text).not.toContain('You have sent')
    // Another provider still takes messages.
    expect((await post(`${profiles[1] ?? ''}/message`, GOOD)).status).toBe(303)
  })

  it('refuses every message with the table at its cap, while purges and catalog writes go on', async () => {
    await env.CONTROL.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO guest_messages (provider_id, device_id, sender, name, email, body, created_at)
       SELECT 1, 'd' || i, 'flood', 'n', 'e@example.com', 'b', ?2 FROM n`,
    )
      .bind(MAX_STORED_MESSAGES, new Date().toISOString())
      .run()
    const res = await post(`${profile}/message`, GOOD)
    expect(res.status).toBe(503)
    const html = await res.text()
    expect(textOf(html)).toContain('Your message was not sent')
    expect(html).toContain('Unique-marker-7731')
    expect(await count()).toBe(MAX_STORED_MESSAGES)

    // A purge is recorded and a catalog row written as ever.
    const purge = await isolate.fetchPage('/__ops/purge', {
      method: 'POST',
      headers: { authorization: 'Bearer test-ops-token', 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['city:atlanta-ga'] }),
    })
    expect(purge.status).toBe(200)
    expect(
      await env.CONTROL.prepare(
        "SELECT COUNT(*) AS n FROM purges WHERE tag = 'city:atlanta-ga'",
      ).first('n'),
    ).toBeGreaterThan(0)
    const written = await (shards()[0] as D1Database)
      .prepare(
        'UPDATE providers SET headline = headline WHERE id = (SELECT MIN(id) FROM providers)',
      )
      .run()
    expect(written.meta.changes).toBe(1)
  })

  it(`deletes messages older than ${MESSAGE_KEEP_DAYS} days in the cron`, async () => {
    const day = 86_400_000
    const now = Date.now()
    for (const age of [MESSAGE_KEEP_DAYS + 1, MESSAGE_KEEP_DAYS - 1])
      await env.CONTROL.prepare(
        `INSERT INTO guest_messages (provider_id, device_id, sender, name, email, body, created_at)
         VALUES (1, 'd', 's', 'n', 'e@example.com', 'b', ?)`,
      )
        .bind(new Date(now - age * day).toISOString())
        .run()
    const ctx = createExecutionContext()
    worker.scheduled(
      createScheduledController({ scheduledTime: now, cron: '*/10 * * * *' }),
      env,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const left = await env.CONTROL.prepare('SELECT created_at FROM guest_messages').all<{
      created_at: string
    }>()
    expect(left.results).toEqual([
      { created_at: new Date(now - (MESSAGE_KEEP_DAYS - 1) * day).toISOString() },
    ])
  })
})

describe('a message D1 cannot store', () => {
  it.each([
    ['slower than the write deadline', (hold: ReturnType<typeof held>) => hold.wait()],
    ['failing', () => Promise.reject(new Error('D1_ERROR: internal error'))],
  ])('gives the form back %s, everything typed kept, “not sent”', async (_, fault) => {
    const hold = held(60_000)
    const db = withStatementFaults(env.CONTROL, (sql) =>
      sql.includes('INSERT INTO guest_messages')
        ? { run: async (run) => (await fault(hold), run()) }
        : undefined,
    )
    try {
      const { res, body } = await isolate.settled(`${profile}/message`, postInit(GOOD), {
        CONTROL: db,
      })
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('60')
      expect(textOf(body)).toContain('Your message was not sent')
      expect(body).toContain('value="Dana Whitfield"')
      expect(body).toContain('value="dana@example.com"')
      expect(body).toContain('Unique-marker-7731')
    } finally {
      hold.release()
    }
  })
})
