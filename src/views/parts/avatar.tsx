/** A photo, or the initials on one of six tones when there is none. */
export function Avatar({
  photoUrl,
  initials,
  tone,
  large = false,
}: {
  photoUrl: string | null
  initials: string
  tone: number
  large?: boolean
}) {
  const size = large ? 96 : 56
  const className = large ? 'avatar large' : 'avatar'
  if (photoUrl)
    return (
      <img className={className} src={photoUrl} alt="" width={size} height={size} loading="lazy" />
    )
  return (
    <span className={`${className} c${tone}`} aria-hidden="true">
      {initials}
    </span>
  )
}
