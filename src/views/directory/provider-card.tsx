import { BADGES } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import { findService } from '../../catalog/services'
import { useSite } from '../site-context'
import type { ProviderCard } from '../../data/provider-listing'
import { providerPath } from '../../routes/paths'
import { count, displayName, initials, miles, rateRange } from '../shared/format'

export function cardName(p: ProviderCard): string {
  return p.businessName ?? displayName(p)
}

export function Avatar({
  id,
  name,
  photoUrl,
  large = false,
}: {
  id: number
  name: string
  photoUrl: string | null
  large?: boolean
}) {
  const size = large ? 96 : 56
  const className = large ? 'avatar large' : 'avatar'
  if (photoUrl)
    return (
      <img className={className} src={photoUrl} alt="" width={size} height={size} loading="lazy" />
    )
  return (
    <span className={`${className} c${id % 6}`} aria-hidden="true">
      {initials(name)}
    </span>
  )
}

/** A provider in a directory: everything SPEC section 4 lists for a card, nothing more. */
export function ProviderCardView({ p, distance }: { p: ProviderCard; distance: number | null }) {
  const name = cardName(p)
  const site = useSite()
  const badges = BADGES.filter((_, i) => p.badges & (2 ** i))
  // Richer daycare cards (flag robustDaycareCards): age groups, schedules, capacity, hours.
  const daycare = site.on('robustDaycareCards') ? findService(p.service) : undefined
  const robust = daycare?.businessType === 'SMB' ? daycare : undefined
  const facts = [
    p.rating !== null
      ? `★ ${p.rating.toFixed(1)} (${count(p.reviewCount, 'review', 'reviews')})`
      : 'New',
    p.businessName
      ? `${p.yearsExperience} years in business`
      : `${p.yearsExperience} years experience`,
    distance !== null ? miles(distance) : null,
  ].filter((f) => f !== null)
  return (
    <li className="card">
      <Avatar id={p.id} name={name} photoUrl={p.photoUrl} />
      <div>
        <h3>
          <a href={providerPath(p)}>{name}</a>
        </h3>
        <p>{p.headline}</p>
        <p className="meta">{facts.join(' · ')}</p>
        <p className="rate">{rateRange(p.rateMin, p.rateMax, p.payUnit)}</p>
        {robust ? (
          <>
            <p className="meta">{`Ages: ${labelsOf(p.ages, robust.ages).join(', ')}`}</p>
            <p className="meta">{`Schedules: ${labelsOf(p.schedules, robust.schedules).join(', ')}`}</p>
            <p className="meta">
              {[p.capacity ? `${p.capacity} children` : null, p.openingHours]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </>
        ) : null}
        {badges.length ? (
          <ul className="badges" aria-label="Badges">
            {badges.map((b) => (
              <li key={b.code}>{b.label}</li>
            ))}
          </ul>
        ) : null}
        <p className="bio">
          {p.bio.length >= 220 ? `${p.bio.slice(0, p.bio.lastIndexOf(' '))}…` : p.bio}
        </p>
      </div>
    </li>
  )
}
