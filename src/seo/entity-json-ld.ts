import type {
  ChildCare,
  Event,
  JobPosting,
  PostalAddress,
  ProfilePage,
  QuantitativeValue,
  WithContext,
} from 'schema-dts'
import type { PayUnit } from '../catalog/enums'

// JSON-LD of entity pages. Each builder takes exactly the strings the page shows, so the
// structured data states only what is visible (Google's structured data policies). The
// schema.org types (schema-dts) make a wrong @type or property a type error.

const CONTEXT = 'https://schema.org'

interface Place {
  locality: string
  region: string
  street?: string | null
}

function postalAddress(place: Place): PostalAddress {
  return {
    '@type': 'PostalAddress',
    ...(place.street ? { streetAddress: place.street } : {}),
    addressLocality: place.locality,
    addressRegion: place.region,
    addressCountry: 'US',
  }
}

/**
 * An individual caregiver: ProfilePage about a Person. No rating: Google shows no review
 * stars for reviews a business hosts about itself, and a caregiver is not a business.
 */
export function caregiverProfile(p: {
  url: string
  name: string
  headline: string
  description: string
  place: Place
  languages: readonly string[]
  credentials: readonly string[]
}): WithContext<ProfilePage> {
  return {
    '@context': CONTEXT,
    '@type': 'ProfilePage',
    url: p.url,
    mainEntity: {
      '@type': 'Person',
      name: p.name,
      jobTitle: p.headline,
      description: p.description,
      homeLocation: { '@type': 'Place', address: postalAddress(p.place) },
      ...(p.languages.length ? { knowsLanguage: p.languages } : {}),
      ...(p.credentials.length
        ? {
            hasCredential: p.credentials.map((name) => ({
              '@type': 'EducationalOccupationalCredential',
              name,
            })),
          }
        : {}),
    },
  }
}

/** A daycare centre: ChildCare, a LocalBusiness, with its rating when it has reviews. */
export function childCareBusiness(b: {
  url: string
  name: string
  description: string
  place: Place
  priceRange: string
  rating: { value: string; count: number } | null
}): WithContext<ChildCare> {
  return {
    '@context': CONTEXT,
    '@type': 'ChildCare',
    name: b.name,
    url: b.url,
    description: b.description,
    address: postalAddress(b.place),
    priceRange: b.priceRange,
    ...(b.rating
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: b.rating.value,
            reviewCount: b.rating.count,
            bestRating: '5',
            worstRating: '1',
          },
        }
      : {}),
  }
}

/** The unitText values Google reads for a salary. */
const SALARY_UNIT: Partial<Record<PayUnit, QuantitativeValue['unitText'] & string>> = {
  hr: 'HOUR',
  day: 'DAY',
  wk: 'WEEK',
  mo: 'MONTH',
}

/**
 * A JobPosting with the properties Google requires (title, description, datePosted,
 * hiringOrganization, jobLocation) and recommends (validThrough, employmentType, baseSalary,
 * identifier, directApply). baseSalary is left out for pay per night, session or flat fee,
 * which Google's unitText values cannot express.
 */
export function jobPosting(j: {
  url: string
  id: number
  siteName: string
  title: string
  description: string
  datePosted: string
  validThrough: string
  employmentType: string
  employer: string
  place: Place
  pay: { min: number; max: number; unit: PayUnit }
}): WithContext<JobPosting> {
  const unitText = SALARY_UNIT[j.pay.unit]
  return {
    '@context': CONTEXT,
    '@type': 'JobPosting',
    title: j.title,
    description: j.description,
    url: j.url,
    identifier: { '@type': 'PropertyValue', name: j.siteName, value: String(j.id) },
    datePosted: j.datePosted,
    validThrough: j.validThrough,
    employmentType: j.employmentType,
    hiringOrganization: { '@type': 'Organization', name: j.employer },
    jobLocation: { '@type': 'Place', address: postalAddress(j.place) },
    directApply: false,
    ...(unitText
      ? {
          baseSalary: {
            '@type': 'MonetaryAmount',
            currency: 'USD',
            value: {
              '@type': 'QuantitativeValue',
              minValue: j.pay.min,
              maxValue: j.pay.max,
              unitText,
            },
          },
        }
      : {}),
  }
}

/**
 * An Event for a dated activity (Google: name, startDate and location required; description,
 * endDate, eventAttendanceMode, eventStatus, organizer and offers recommended). An online
 * activity's location is a VirtualLocation: the activity on this page. An offer's `price` is
 * what a ticket costs (Google's Event docs: "the lowest available price"), so only a one-off
 * price is stated as one; a price per session, week or month is a UnitPriceSpecification with
 * its unit, as the page shows it ("$130 per month"), never a bare "130".
 */
export function activityEvent(a: {
  url: string
  name: string
  description: string
  startDate: string
  endDate: string
  online: boolean
  venue: string | null
  place: Place | null
  organizer: string
  price: number
  /** "month", "week", "session"; null for a one-off price. */
  priceUnit: string | null
}): WithContext<Event> {
  return {
    '@context': CONTEXT,
    '@type': 'Event',
    name: a.name,
    description: a.description,
    startDate: a.startDate,
    endDate: a.endDate,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: a.online
      ? 'https://schema.org/OnlineEventAttendanceMode'
      : 'https://schema.org/OfflineEventAttendanceMode',
    location:
      a.online || !a.place
        ? { '@type': 'VirtualLocation', url: a.url }
        : {
            '@type': 'Place',
            ...(a.venue ? { name: a.venue } : {}),
            address: postalAddress(a.place),
          },
    organizer: { '@type': 'Organization', name: a.organizer },
    offers:
      a.priceUnit === null
        ? { '@type': 'Offer', price: String(a.price), priceCurrency: 'USD', url: a.url }
        : {
            '@type': 'Offer',
            priceCurrency: 'USD',
            url: a.url,
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: String(a.price),
              priceCurrency: 'USD',
              unitText: a.priceUnit,
            },
          },
  }
}
