import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { FLAGS_KEY } from '../../src/flags/schema'
import { lineDiff } from '../../src/lib/line-diff'
import { accessToken, EDITOR, PURGER } from '../support/access'
import { fetchPage, ORIGIN } from '../support/fetch-page'

const as = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'cf-access-jwt-assertion': token, ...init.headers },
})

const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')

/** The confirmation form of a change: its hidden fields, as the browser would post them. */
function confirmation(html: string): Record<string, string> {
  const form = /<form action="[^"]*" method="post"[\s\S]*?<\/form>/.exec(html)?.[0] ?? ''
  return Object.fromEntries(
    [...form.matchAll(/name="([a-z]+)" value="([^"]*)"/g)].map((m) => [
      m[1] ?? '',
      unescape(m[2] ?? ''),
    ]),
  )
}

function save(token: string, fields: Record<string, string>) {
  return fetchPage(
    '/__ops/flags',
    as(token, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    }),
  )
}

afterEach(() => env.FLAGS.delete(FLAGS_KEY))

describe('flags in the console', () => {
  it('lists each flag with its stored document and its effective value in words', async () => {
    await env.FLAGS.put(
      FLAGS_KEY,
      JSON.stringify({
        flags: { providerSignUpBanner: { state: 'ENABLED', rules: [{ percentage: 20 }] } },
      }),
    )
    const html = await (await fetchPage('/__ops/flags', as(await accessToken(PURGER)))).text()
    expect(html).toContain('providerSignUpBanner (flag)')
    expect(html).toContain('on for 20% of visitors')
    expect(html).toContain('documented default (nothing stored)')
    // A purger may look, not change.
    expect(html).not.toContain('Change providerSignUpBanner')
  })

  it('shows a change as a diff, saves it on confirmation with its audit row', async () => {
    const editor = await accessToken(EDITOR)
    const doc = JSON.stringify({ state: 'ENABLED', default: true })
    const preview = await fetchPage(
      `/__ops/flags/change?${new URLSearchParams({ name: 'providerSignUpBanner', doc }).toString()}`,
      as(editor),
    )
    const html = await preview.text()
    expect(preview.status).toBe(200)
    expect(html).toContain('After the change, providerSignUpBanner is: on for everyone')
    expect(html).toContain('<span class="added">+ {\n</span>')
    expect(await env.FLAGS.get(FLAGS_KEY)).toBeNull()

    const saved = await save(editor, confirmation(html))
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe('/__ops/flags?changed=providerSignUpBanner')
    const stored = JSON.parse((await env.FLAGS.get(FLAGS_KEY)) ?? '{}') as {
      flags: Record<string, unknown>
    }
    expect(stored.flags.providerSignUpBanner).toEqual({ state: 'ENABLED', default: true })
    const audit = await env.CONTROL.prepare(
      'SELECT token_name, outcome FROM purge_log ORDER BY id DESC LIMIT 1',
    ).first()
    expect(audit).toEqual({
      token_name: EDITOR,
      outcome: 'flag providerSignUpBanner set: { "state": "ENABLED", "default": true }',
    })
  })

  it('saves a change over a stored document when the browser sends its lines as CRLF', async () => {
    const editor = await accessToken(EDITOR)
    const stored = { state: 'ENABLED', rules: [], overrides: {} }
    await env.FLAGS.put(FLAGS_KEY, JSON.stringify({ flags: { providerSignUpBanner: stored } }))
    const doc = JSON.stringify({ state: 'DISABLED' })
    const html = await (
      await fetchPage(
        `/__ops/flags/change?${new URLSearchParams({ name: 'providerSignUpBanner', doc }).toString()}`,
        as(editor),
      )
    ).text()
    // The HTML form encoding sends every line break of a field as CRLF.
    const fields = Object.fromEntries(
      Object.entries(confirmation(html)).map(([k, v]) => [k, v.replace(/\n/g, '\r\n')]),
    )
    expect(fields.before).toContain('\r\n')
    const saved = await save(editor, fields)
    expect(saved.status).toBe(303)
    const after = JSON.parse((await env.FLAGS.get(FLAGS_KEY)) ?? '{}') as {
      flags: Record<string, unknown>
    }
    expect(after.flags.providerSignUpBanner).toEqual({ state: 'DISABLED' })
  })

  it('previews a posted document of several lines (CRLF, as a browser sends it), only with CSRF', async () => {
    const editor = await accessToken(EDITOR)
    const form = await (
      await fetchPage('/__ops/flags/change?name=providerSignUpBanner', as(editor))
    ).text()
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? ''
    expect(form).toMatch(/<form action="\/__ops\/flags\/change" method="post">/)
    const doc = '{\r\n  "state": "ENABLED",\r\n  "default": true\r\n}'
    const preview = (fields: Record<string, string>) =>
      fetchPage(
        '/__ops/flags/change',
        as(editor, {
          method: 'POST',
          body: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        }),
      )
    const shown = await preview({ csrf, name: 'providerSignUpBanner', doc })
    expect(shown.status).toBe(200)
    expect(await shown.text()).toContain(
      'After the change, providerSignUpBanner is: on for everyone',
    )
    const refused = await preview({ name: 'providerSignUpBanner', doc })
    expect(refused.status).toBe(403)
    await refused.text()
    expect(await env.FLAGS.get(FLAGS_KEY)).toBeNull()
  })

  it('answers a document the worker would refuse with the form and the reason', async () => {
    const editor = await accessToken(EDITOR)
    for (const doc of ['{"state":"SOMETIMES"}', 'not json']) {
      const res = await fetchPage(
        `/__ops/flags/change?${new URLSearchParams({ name: 'providerSignUpBanner', doc }).toString()}`,
        as(editor),
      )
      const html = await res.text()
      expect(res.status, doc).toBe(400)
      expect(html, doc).toMatch(/id="flag-doc-error">[^<]+/)
    }
    expect(await env.FLAGS.get(FLAGS_KEY)).toBeNull()
  })

  it('refuses a purger’s change, a change without its CSRF token, and a stale one', async () => {
    const editor = await accessToken(EDITOR)
    const doc = '{"state":"DISABLED","default":false}'
    const html = await (
      await fetchPage(
        `/__ops/flags/change?${new URLSearchParams({ name: 'providerSignUpBanner', doc }).toString()}`,
        as(editor),
      )
    ).text()
    const fields = confirmation(html)
    expect((await save(await accessToken(PURGER), fields)).status).toBe(403)
    expect((await save(editor, { ...fields, csrf: '' })).status).toBe(403)
    expect(await env.FLAGS.get(FLAGS_KEY)).toBeNull()
    await env.FLAGS.put(
      FLAGS_KEY,
      JSON.stringify({ flags: { providerSignUpBanner: { state: 'ENABLED' } } }),
    )
    const stale = await save(editor, fields)
    expect(stale.status).toBe(400)
    expect(await stale.text()).toContain('changed by someone else since')
  })
})

describe('lineDiff', () => {
  it('keeps common lines and marks the rest', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'added', text: 'x' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
    ])
    expect(lineDiff('', 'a')).toEqual([{ kind: 'added', text: 'a' }])
  })
})

describe('the value a visitor gets, in the console', () => {
  const visitorPage = async (query: Record<string, string>) =>
    fetchPage(
      `/__ops/flags/visitor?${new URLSearchParams(query).toString()}`,
      as(await accessToken(PURGER)),
    )

  it('shows each flag for a new visitor, a returning one and a crawler on a page', async () => {
    await env.FLAGS.put(
      FLAGS_KEY,
      JSON.stringify({
        flags: {
          providerSignUpBanner: {
            state: 'ENABLED',
            rules: [{ pageTypes: ['seoSearchListing'], percentage: 20 }],
            overrides: { '0d5e6c1a-4b8f-4c3e-9a2d-7f1e2b3c4d5e': true },
          },
        },
      }),
    )
    const url = `${ORIGIN}/babysitters/atlanta-ga`
    const fresh = await visitorPage({ url, visitor: 'new' })
    const html = await fresh.text()
    expect(fresh.status).toBe(200)
    expect(html).toContain(
      '/babysitters/atlanta-ga: page type seoSearchListing, service babysitters, city atlanta-ga, state GA',
    )
    expect(html).toMatch(/providerSignUpBanner<\/th><td><strong>on for 20% of new visitors/)
    const returning = await (
      await visitorPage({
        url,
        visitor: 'returning',
        device: '0D5E6C1A-4B8F-4C3E-9A2D-7F1E2B3C4D5E',
      })
    ).text()
    expect(returning).toMatch(
      /providerSignUpBanner<\/th><td><strong>on<\/strong><\/td><td>this device/,
    )
    const crawler = await (await visitorPage({ url, visitor: 'new', bot: '1' })).text()
    expect(crawler).toMatch(/providerSignUpBanner<\/th><td><strong>off<\/strong>/)
    // The list of flags offers the same form.
    const list = await (await fetchPage('/__ops/flags', as(await accessToken(PURGER)))).text()
    expect(list).toContain('action="/__ops/flags/visitor"')
  })

  it('answers a URL of another site or a bad device id with the form and the reason', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ url: 'https://evil.example/nannies', visitor: 'new' }, 'url', 'name a page of this site'],
      [{ url: '', visitor: 'new' }, 'url', 'name a page of this site'],
      [{ url: '/__ops/flags', visitor: 'new' }, 'url', 'name a page of this site'],
      [{ url: '/nannies', visitor: 'returning', device: 'mine' }, 'device', 'not a device id'],
    ]
    for (const [query, field, reason] of cases) {
      const res = await visitorPage(query)
      const html = await res.text()
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(html).toMatch(new RegExp(`id="visitor-${field}-error">${reason}`))
      expect(html).toContain('aria-invalid="true"')
    }
  })
})
