import { BADGES } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import { findService } from '../../catalog/services'
import type { ProviderCard } from '../../data/provider-listing'
import { providerPath } from '../../urls/paths'
import { Card } from '../listing/card'
import type { CardLine, CardModel } from '../listing/listing-state'
import { count, displayName, initials, miles, rateRange, yearsOf } from '../parts/format'
import { useSite } from '../site-context'

export function cardName(p: ProviderCard): string {
  return p.businessName ?? displayName(p)
}

/** The avatar of a provider: photo, or initials on a tone picked by id. */
export function avatarOf(
  id: number,
  name: string,
  photoUrl: string | null,
): NonNullable<CardModel['avatar']> {
  return { photoUrl, initials: initials(name), tone: id % 6, eager: false }
}

/**
 * A provider in a directory: everything a card shows, nothing more. With
 * `robust` (flag robustDaycareCards), daycare centres also show age groups, schedules, capacity
 * and hours.
 */
export function providerCard(p: ProviderCard, distance: number | null, robust: boolean): CardModel {
  const name = cardName(p)
  const badges = BADGES.filter((_, i) => p.badges & (2 ** i)).map((b) => b.label)
  const daycare = robust ? findService(p.service) : undefined
  const centre = daycare?.businessType === 'SMB' ? daycare : undefined
  const facts = [
    p.rating !== null
      ? `★ ${p.rating.toFixed(1)} (${count(p.reviewCount, 'review', 'reviews')})`
      : 'New',
    yearsOf(p.yearsExperience, p.businessName !== null),
    distance !== null ? miles(distance) : null,
  ].filter((f) => f !== null)
  const text = (className: string | null, value: string): CardLine => ({
    kind: 'text',
    className,
    text: value,
  })
  const lines: CardLine[] = [
    text(null, p.headline),
    text('meta', facts.join(' · ')),
    text('rate', rateRange(p.rateMin, p.rateMax, p.payUnit)),
  ]
  if (centre) {
    lines.push(
      text('meta', `Ages: ${labelsOf(p.ages, centre.ages).join(', ')}`),
      text('meta', `Schedules: ${labelsOf(p.schedules, centre.schedules).join(', ')}`),
      text(
        'meta',
        [p.capacity ? count(p.capacity, 'child', 'children') : null, p.openingHours]
          .filter(Boolean)
          .join(' · '),
      ),
    )
  }
  if (badges.length) lines.push({ kind: 'badges', items: badges })
  lines.push(
    text('bio', p.bio.length >= 220 ? `${p.bio.slice(0, p.bio.lastIndexOf(' '))}…` : p.bio),
  )
  return {
    key: `p${p.id}`,
    anchor: null,
    avatar: avatarOf(p.id, name, p.photoUrl),
    title: name,
    href: providerPath(p),
    lines,
  }
}

/** A provider card outside a listing (state pages, similar providers), flags from the page. */
export function ProviderCardView({ p, distance }: { p: ProviderCard; distance: number | null }) {
  const site = useSite()
  return <Card card={providerCard(p, distance, site.on('robustDaycareCards'))} />
}
