/** The next step for a visitor: the visitor flow's entry for a segment (SPEC section 4). */
export function CallToAction({
  segment,
  text,
  label,
}: {
  segment: string
  text: string
  label: string
}) {
  return (
    <div className="cta-band">
      <p>{text}</p>
      <a className="cta" href={`/us-subscription/segment/nonmember/${segment}`}>
        {label}
      </a>
    </div>
  )
}
