import { describe, expect, it } from 'vitest'
import { fetchPage, page } from '../support/fetch-page'
import { shardOf } from '../support/builders'

/** The avatars of a page in order: initials, and the photo's attributes when there is one. */
function avatars(html: string) {
  return [
    ...html.matchAll(
      /<span class="avatar( large)? c\d" aria-hidden="true">([^<]*)(?:<picture>(<img [^>]*>))?/g,
    ),
  ].map((m) => ({ large: Boolean(m[1]), initials: m[2], img: m[3] ?? null }))
}

async function withPhoto(citySlug: string) {
  const row = await shardOf(citySlug)
    .prepare(
      `SELECT p.id, p.name_slug AS slug, p.photo_url AS photoUrl FROM providers p
       JOIN cities c ON c.id = p.city_id
      WHERE c.slug = ? AND p.photo_url IS NOT NULL ORDER BY p.id LIMIT 1`,
    )
    .bind(citySlug)
    .first<{ id: number; slug: string; photoUrl: string }>()
  if (!row) throw new Error(`the test catalog has no photo in ${citySlug}`)
  return row
}

describe('photos', () => {
  it('a listing shows photos sized, resized for the density, lazy below the first cards, initials behind', async () => {
    const shown = avatars((await page('/babysitters/atlanta-ga')).html)
    const photos = shown.filter((a) => a.img)
    expect(photos.length).toBeGreaterThan(0)
    expect(shown.some((a) => !a.img)).toBe(true)
    for (const [i, { img, initials }] of shown.entries()) {
      expect(initials).toMatch(/^\p{L}{1,2}$/u)
      if (!img) continue
      expect(img).toContain('width="56" height="56"')
      expect(img).toContain('alt=""')
      expect(img).toMatch(
        /src="\/cdn-cgi\/image\/width=56,quality=75,format=auto\/https:\/\/www\.care\.example\/photos\/portrait-\d\.png"/,
      )
      expect(img).toMatch(
        /srcSet="\/cdn-cgi\/image\/width=112,[^ ]+ 2x, \/cdn-cgi\/image\/width=168,[^ ]+ 3x"/,
      )
      expect(img.includes('loading="lazy"')).toBe(i >= 2)
    }
  })

  it('a profile shows its photo large and at once: it is on the first screen', async () => {
    const p = await withPhoto('atlanta-ga')
    const { res, html } = await page(`/p/${p.slug}-${p.id}`)
    expect(res.status).toBe(200)
    const [own] = avatars(html)
    expect(own?.large).toBe(true)
    expect(own?.img).toContain('width="96" height="96"')
    expect(own?.img).toContain(`/cdn-cgi/image/width=192,quality=75,format=auto/${p.photoUrl} 2x`)
    expect(own?.img).not.toContain('loading=')
  })

  it('answers the resizing URL of an own photo unresized where nothing resizes, and nothing else', async () => {
    const p = await withPhoto('atlanta-ga')
    for (const source of [p.photoUrl, new URL(p.photoUrl).pathname.slice(1)]) {
      const res = await fetchPage(`/cdn-cgi/image/width=56,quality=75,format=auto/${source}`)
      expect([source, res.status, res.headers.get('content-type')]).toEqual([
        source,
        200,
        'image/png',
      ])
      expect(new Uint8Array(await res.arrayBuffer()).slice(1, 4)).toEqual(
        new TextEncoder().encode('PNG'),
      )
    }
    for (const source of [
      'https://elsewhere.example/photos/portrait-1.png',
      'https://www.care.example/assets/../wrangler.toml',
      'photos/none.png',
      'https://www.care.example/robots.txt',
    ]) {
      const res = await fetchPage(`/cdn-cgi/image/width=56/${source}`)
      expect([source, res.status]).toEqual([source, 404])
      await res.body?.cancel()
    }
  })
})
