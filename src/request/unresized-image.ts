import { IMAGE_RESIZING } from '../urls/resized-image'

/** Whether `request` asks for a resized image (src/urls/resized-image.ts). */
export function isResizedImage(request: Request): boolean {
  return new URL(request.url).pathname.startsWith(IMAGE_RESIZING)
}

/**
 * A resized image as this worker sees it. On Cloudflare it never does: the edge resizes the image
 * before any worker runs. Under `wrangler dev` and in tests nothing resizes, so one of the
 * site's own photos is answered as it is, at its full size, and pages show the photos they would
 * in production; any other source is a 404, and never fetched.
 */
export async function unresizedImage(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url)
  // After the prefix: the options, then the source, absolute or from the zone's root.
  const source = url.pathname.slice(IMAGE_RESIZING.length).replace(/^[^/]*\//, '')
  const origin = new URL(env.PUBLIC_ORIGIN).origin
  const target = URL.canParse(source) ? new URL(source) : new URL(`/${source}`, origin)
  const own = target.origin === origin && target.pathname.startsWith('/photos/')
  if (!own || (request.method !== 'GET' && request.method !== 'HEAD'))
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } })
  return env.ASSETS.fetch(new Request(new URL(target.pathname, url), { method: request.method }))
}
