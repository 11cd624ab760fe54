import { resized } from '../../urls/resized-image'

/**
 * A provider's initials on one of six tones, and their photo over them when there is one. The
 * photo has its size stated, comes resized for the screen's density, and waits to be near the
 * screen unless `eager`. Should it fail to load, it draws nothing (the stylesheet keeps the
 * browser's broken-image icon away) and the initials behind it show; the browser script also
 * hides it (src/client/photos.ts).
 */
export function Avatar({
  photoUrl,
  initials,
  tone,
  eager = false,
  large = false,
}: {
  photoUrl: string | null
  initials: string
  tone: number
  /** On the first screen: loaded at once. */
  eager?: boolean
  large?: boolean
}) {
  const size = large ? 96 : 56
  return (
    <span className={`${large ? 'avatar large' : 'avatar'} c${tone}`} aria-hidden="true">
      {initials}
      {/* In a <picture>, React does not hoist a preload of an eager image to the document's
          start: a card's markup rendered once alone (src/views/fragments.ts) is then exactly
          what the whole page would have rendered in its place. */}
      {photoUrl ? (
        <picture>
          <img
            src={resized(photoUrl, size)}
            srcSet={`${resized(photoUrl, size * 2)} 2x, ${resized(photoUrl, size * 3)} 3x`}
            alt=""
            width={size}
            height={size}
            loading={eager ? undefined : 'lazy'}
            decoding="async"
          />
        </picture>
      ) : null}
    </span>
  )
}
