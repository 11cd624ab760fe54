import { createElement, Suspense, use } from 'react'
import { BADGES, TRAITS, WEEKDAYS } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import type { Service } from '../../catalog/services'
import type { Provider, ProviderService, Review } from '../../data/providers'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { avatarOf } from '../directory/provider-card'
import { Card } from '../listing/card'
import type { CardModel } from '../listing/listing-state'
import { Avatar } from '../parts/avatar'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import { count, monthYear, rateRange, yearsOf } from '../parts/format'
import { weekDays } from '../parts/week-days'
import { EMPTY_MESSAGE } from '../../queries/message-form'
import { providerMessagePath } from '../../urls/paths'
import { MessageForm } from '../message/message-form'
import type { Fragments } from '../fragments'
import { fragment } from '../fragment'
import { Document } from '../document'
import type { DocumentParts } from '../render-document'
import { MARKUP_KEY, Placed } from '../markup'

// A centre shows two traits, worded for a centre (the product says: "Daycare smoker and car checkboxes
// are enabled"); the others describe a person.
const CENTER_TRAITS: Readonly<Record<string, string>> = {
  NON_SMOKER: 'Smoke-free center',
  RELIABLE_CAR: 'Offers transportation',
}

export interface ProfileService {
  service: Service
  row: ProviderService
}

export interface ProfilePageProps {
  head: Head
  crumbs: readonly Crumb[]
  provider: Provider
  name: string
  place: string
  services: readonly ProfileService[]
  languages: readonly string[]
  credentials: readonly string[]
  ratings: readonly { label: string; average: number }[]
  reviews: readonly Review[]
  /** Streamed after the shell. */
  similar: Promise<readonly CardModel[]>
  ctaSegment: string
  /** A message form for visitors (flag embeddedGuestMessaging). */
  messaging: boolean
}

/**
 * A provider's profile: an individual caregiver, or a daycare centre (business type SMB). The
 * call to contact comes right after the profile's head, so a phone shows it on the first
 * screen; on wide screens it stands beside the profile and stays in view (`layout="detail"`).
 * The sections about the provider are placed as markup rendered once per provider's content
 * (`profileMarkup`); the call to action, which reads the request's flags, is rendered here. The
 * inside of the document's <main> up to the similar providers (`ProfileSimilar`), rendered apart
 * (src/views/main-markup.ts).
 */
export function ProfilePage(props: ProfilePageProps) {
  const { provider: p, name } = props
  const smb = p.businessType === 'SMB'
  const body = profileBody(props)
  const section = (id: Section, className?: string) => (
    <Placed
      tag="section"
      className={className}
      aria-labelledby={className ? undefined : `${id}-title`}
      markupKey={MARKUP_KEY.profile(id)}
    >
      {createElement(SECTIONS[id].Component, { body })}
    </Placed>
  )
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      {section('head', 'profile-head')}
      <div className="detail-action">
        <CallToAction
          segment={props.ctaSegment}
          text={
            smb
              ? `Ask ${name} about openings and tuition.`
              : `Interested in ${name}? Tell us what you need and we'll help you connect.`
          }
          label={smb ? `Contact ${name}` : `Contact ${p.firstName}`}
        />
      </div>
      {props.messaging ? (
        <section aria-labelledby="message-title" className="message">
          <h2 id="message-title">{`Message ${smb ? name : p.firstName}`}</h2>
          <MessageForm
            action={providerMessagePath(p)}
            recipient={smb ? name : p.firstName}
            values={EMPTY_MESSAGE}
            errors={{}}
          />
        </section>
      ) : null}
      {section('about')}
      {section('services')}
      {smb ? null : section('availability')}
      {section('details')}
      {section('reviews')}
    </>
  )
}

/**
 * A profile as its route hands it to `renderDocument`: the main rendered apart (`ProfilePage`),
 * the similar providers streamed after it, the sections about the provider as fragments.
 */
export function profileView(props: ProfilePageProps): DocumentParts {
  return {
    document: (placeCards) => (
      <Document head={props.head} layout="detail">
        <ProfileSimilar {...props} similar={placeCards(props.similar)} />
      </Document>
    ),
    main: <ProfilePage {...props} />,
    fragments: (fragments) => profileMarkup(fragments, props),
  }
}

/** A profile's similar providers, streamed after its main (`ProfilePage`). */
export function ProfileSimilar(props: ProfilePageProps) {
  const primary = props.services[0]
  return (
    <Suspense fallback={<p className="loading">Loading similar providers…</p>}>
      <Similar
        items={props.similar}
        title={
          primary
            ? `More ${primary.service.nouns} in ${props.place}`
            : `More care in ${props.place}`
        }
      />
    </Suspense>
  )
}

/** What the sections about the provider show: the loaded provider and nothing of the request. */
type ProfileBody = Pick<
  ProfilePageProps,
  'provider' | 'name' | 'place' | 'services' | 'languages' | 'credentials' | 'ratings' | 'reviews'
> & { memberSince: string }

/** The sections' props; a date no code expects throws here, in the page's own render. */
function profileBody(props: ProfilePageProps): ProfileBody {
  return { ...props, memberSince: monthYear(props.provider.createdAt) }
}

/** The inside of each section about the provider, by the id its heading's id starts with. */
const SECTIONS = {
  head: fragment('profile-head', ProfileHead, profileKey),
  about: fragment('profile-about', About, profileKey),
  services: fragment('profile-services', Services, profileKey),
  availability: fragment('profile-availability', Availability, profileKey),
  details: fragment('profile-details', Details, profileKey),
  reviews: fragment('profile-reviews', Reviews, profileKey),
}

type Section = keyof typeof SECTIONS

/**
 * The sections about the provider, rendered once per content: keyed by the JSON of all that
 * shapes them (a service by its slug: the catalog's services are constants), so a changed
 * provider, service, rating or review is another key and is never served an old section. A
 * centre has no availability section. None on the content's first render in the isolate: the
 * page renders them itself (`Fragments.sections`).
 */
export function profileMarkup(fragments: Fragments, props: ProfilePageProps): [string, string][] {
  const shown = Object.entries(SECTIONS).filter(
    ([id]) => id !== 'availability' || props.provider.businessType !== 'SMB',
  )
  const body = () => profileBody(props)
  return fragments.sections('profile', shown, body, contentKey(props), MARKUP_KEY.profile)
}

/** A section's key: the content of the profile (`contentKey`). */
function profileKey({ body }: { body: ProfileBody }): string {
  return contentKey(body)
}

/** The JSON of all that shapes the sections; a service by its slug. */
function contentKey(content: Omit<ProfileBody, 'memberSince'>): string {
  const { provider, name, place, languages, credentials, ratings, reviews } = content
  const services = content.services.map(({ service, row }) => [service.slug, row])
  return JSON.stringify([provider, name, place, services, languages, credentials, ratings, reviews])
}

function ProfileHead({ body }: { body: ProfileBody }) {
  const { provider: p, name } = body
  const smb = p.businessType === 'SMB'
  const primary = body.services[0]
  const badges = labelsOf(p.badges, BADGES)
  return (
    <>
      <Avatar {...avatarOf(p.id, name, p.photoUrl)} eager large />
      <div>
        <h1>{name}</h1>
        <p className="headline">{p.headline}</p>
        <p className="meta">
          {[
            body.place,
            yearsOf(p.yearsExperience, smb),
            p.rating !== null
              ? `★ ${p.rating.toFixed(1)} (${count(p.reviewCount, 'review', 'reviews')})`
              : 'No reviews yet',
          ].join(' · ')}
        </p>
        {primary ? (
          <p className="rate">
            {rateRange(primary.row.rateMin, primary.row.rateMax, primary.row.payUnit)}
          </p>
        ) : null}
        {badges.length ? <List className="badges" label="Badges" items={badges} /> : null}
      </div>
    </>
  )
}

function About({ body }: { body: ProfileBody }) {
  const { provider: p } = body
  const smb = p.businessType === 'SMB'
  return (
    <>
      <h2 id="about-title">{smb ? 'About the center' : `About ${p.firstName}`}</h2>
      <p>{p.bio}</p>
      {smb ? (
        <dl className="facts">
          {p.address ? <Fact term="Address" value={`${p.address}, ${body.place}`} /> : null}
          {p.openingHours ? (
            <Fact
              term="Hours"
              value={[p.openingHours, weekDays(p.availability)].filter(Boolean).join(', ')}
            />
          ) : null}
          {p.capacity ? (
            <Fact term="Capacity" value={count(p.capacity, 'child', 'children')} />
          ) : null}
        </dl>
      ) : null}
    </>
  )
}

function Services({ body }: { body: ProfileBody }) {
  const smb = body.provider.businessType === 'SMB'
  return (
    <>
      <h2 id="services-title">{smb ? 'Programs' : 'Services'}</h2>
      {body.services.map(({ service, row }) => (
        <div key={service.slug} className="service">
          <h3>{`${smb ? 'Tuition' : service.title}: ${rateRange(row.rateMin, row.rateMax, row.payUnit)}`}</h3>
          <OptionList
            title={smb ? 'Age groups' : 'Ages'}
            items={labelsOf(row.ages, service.ages)}
          />
          <OptionList
            title={service.slug === 'tutors' ? 'Subjects' : 'Services'}
            items={labelsOf(row.options, service.options)}
          />
          <OptionList title="Schedules" items={labelsOf(row.schedules, service.schedules)} />
        </div>
      ))}
    </>
  )
}

function Availability({ body }: { body: ProfileBody }) {
  const { availability } = body.provider
  return (
    <>
      <h2 id="availability-title">Availability</h2>
      <ul className="week">
        {WEEKDAYS.map((day, i) => (
          <li key={day.code} className={availability & (2 ** i) ? 'on' : 'off'}>
            {`${day.label}: ${availability & (2 ** i) ? 'available' : 'not available'}`}
          </li>
        ))}
      </ul>
    </>
  )
}

function Details({ body }: { body: ProfileBody }) {
  const { provider: p } = body
  const smb = p.businessType === 'SMB'
  const traits = smb
    ? TRAITS.flatMap((t, i) =>
        p.traits & (2 ** i) && CENTER_TRAITS[t.code] ? [CENTER_TRAITS[t.code] ?? ''] : [],
      )
    : labelsOf(p.traits, TRAITS)
  return (
    <>
      <h2 id="details-title">Details</h2>
      <dl className="facts">
        {body.languages.length ? <Fact term="Languages" value={body.languages.join(', ')} /> : null}
        {body.credentials.length ? (
          <Fact term="Certifications" value={body.credentials.join(', ')} />
        ) : null}
        {p.education ? <Fact term="Education" value={p.education} /> : null}
        {traits.length ? (
          <Fact term={smb ? 'Center' : 'Good to know'} value={traits.join(', ')} />
        ) : null}
        <Fact term="Member since" value={body.memberSince} />
      </dl>
    </>
  )
}

function Reviews({ body }: { body: ProfileBody }) {
  const { name, ratings, reviews } = body
  const total = body.provider.reviewCount
  return (
    <>
      <h2 id="reviews-title">{`Reviews (${total})`}</h2>
      {total === 0 ? <p>{`${name} has no reviews yet.`}</p> : null}
      {ratings.length ? (
        <dl className="facts ratings">
          {ratings.map((r) => (
            <Fact key={r.label} term={r.label} value={`${r.average.toFixed(1)} out of 5`} />
          ))}
        </dl>
      ) : null}
      <ul className="reviews">
        {reviews.map((r) => (
          <li key={r.id}>
            <p className="meta">{`★ ${r.rating} · ${r.author} · ${monthYear(r.createdAt)}`}</p>
            <p>{r.body}</p>
          </li>
        ))}
      </ul>
    </>
  )
}

function Similar({ items, title }: { items: Promise<readonly CardModel[]>; title: string }) {
  const cards = use(items)
  if (cards.length === 0) return null
  return (
    <section aria-labelledby="similar-title">
      <h2 id="similar-title">{title}</h2>
      <ul className="cards">
        {cards.map((c) => (
          <Card key={c.key} card={c} />
        ))}
      </ul>
    </section>
  )
}

function OptionList({ title, items }: { title: string; items: readonly string[] }) {
  if (items.length === 0) return null
  return (
    <>
      <h4>{title}</h4>
      <List className="tags" label={title} items={items} />
    </>
  )
}

function List({
  className,
  label,
  items,
}: {
  className: string
  label: string
  items: readonly string[]
}) {
  return (
    <ul className={className} aria-label={label}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  )
}
