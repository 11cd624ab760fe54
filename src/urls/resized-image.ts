/**
 * Where Cloudflare resizes an image: `/cdn-cgi/image/<options>/<source URL>` on the site's own
 * zone (docs/pages.md, "Photos").
 */
export const IMAGE_RESIZING = '/cdn-cgi/image/'

/** `photo` resized at the edge to `width` pixels, in the best format the browser takes. */
export function resized(photo: string, width: number): string {
  return `${IMAGE_RESIZING}width=${width},quality=75,format=auto/${photo}`
}
