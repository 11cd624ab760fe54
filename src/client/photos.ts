// A provider's photo that fails to load is hidden, so the initials it covered show plainly
// (src/views/parts/avatar.tsx): those that failed before this script ran, and any later one,
// server-rendered or rendered here. One listener at the document: an image's error event does not
// bubble, but it is captured.
const AVATAR_PHOTO = '.avatar img'

// Hidden, not removed: React may own the element, and an attribute it never sets is safe to add.
function hide(img: HTMLImageElement): void {
  img.hidden = true
}

export function watchPhotos(): void {
  document.addEventListener(
    'error',
    (event) => {
      const target = event.target
      if (target instanceof HTMLImageElement && target.matches(AVATAR_PHOTO)) hide(target)
    },
    true,
  )
  for (const img of document.querySelectorAll<HTMLImageElement>(AVATAR_PHOTO))
    if (img.complete && img.naturalWidth === 0) hide(img)
}
