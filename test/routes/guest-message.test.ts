import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MESSAGES_PER_VISITOR_HOUR } from '../../src/data/guest-messages'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, cardLinks, ORIGIN, robotsOf, textOf } from '../support/fetch-page'

// Requests go through an isolate of this file's own, fresh after each change to the flag store.
let isolate: Isolate = anIsolate()
const DEVICE = '55555555-5555-4555-8555-555555555555'
let profile = ''

async function messaging(on: boolean) {
  if (on) await env.FLAGS.put('flags', '{"flags":{"embeddedGuestMessaging":{"state":"ENABLED"}}}')
  else await env.FLAGS.delete('flags')
  isolate = anIsolate()
}

beforeEach(async () => {
  await messaging(true)
  ;[profile = ''] = cardLinks((await isolate.page('/babysitters/atlanta-ga')).html)
})
afterEach(async () => {
  await messaging(false)
  await env.DB.prepare('DELETE FROM guest_messages').run()
})

/** A form post as the profile's form sends it, from this site's page by default. */
function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return isolate.fetchPage(path, {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      cookie: `care_did=${DEVICE}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  })
}

const GOOD = {
  name: 'Dana Whitfield',
  email: 'dana@example.com',
  message: 'Hello! Are you free on Saturday evenings in March? Unique-marker-7731.',
}

const stored = () =>
  env.DB.prepare('SELECT provider_id, device_id, name, email, body FROM guest_messages').all<{
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
    for (let i = 0; i < MESSAGES_PER_VISITOR_HOUR; i++)
      expect((await post(`${profile}/message`, GOOD)).status).toBe(303)
    const res = await post(`${profile}/message`, GOOD)
    expect(res.status).toBe(429)
    const html = await res.text()
    expect(textOf(html)).toContain('You have sent several messages in the last hour.')
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
    ['a body over 16 KiB', 413, {}, `message=${'a'.repeat(20_000)}`],
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

  it('takes only POST at the form’s path, and 404s an unknown provider', async () => {
    const get = await isolate.fetchPage(`${profile}/message`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    expect((await post('/p/nobody-999999999/message', GOOD)).status).toBe(404)
  })
})
