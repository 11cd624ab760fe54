import type { Labelled } from './enums'
import { slugOf } from './options'

// Camps and activities: the product's activity categories and their subcategories
// (docs/pages.md, "Camps and activities").
// Keywords are the hyphen forms: `hip-hop`, `3d-printing`, `outdoor-and-adventure`.

export interface ActivityCategory {
  slug: string
  label: string
  subcategories: readonly Labelled[]
}

function category(label: string, subcategories: readonly string[]): ActivityCategory {
  return {
    slug: slugOf(label),
    label: label.charAt(0).toUpperCase() + label.slice(1),
    subcategories: subcategories.map((s) => ({
      code: slugOf(s),
      slug: slugOf(s),
      label: s.charAt(0).toUpperCase() + s.slice(1),
    })),
  }
}

export const ACTIVITY_CATEGORIES: readonly ActivityCategory[] = [
  category('music', [
    'band',
    'drums',
    'choir',
    'voice',
    'songwriting',
    'music production',
    'violin',
    'piano',
    'theater',
    'instrumental',
    'dj skills',
    'guitar',
  ]),
  category('dance', ['break dance', 'folklorico', 'hip hop', 'jazz', 'ballet', 'tap dance']),
  category('academic', [
    'reading',
    'french',
    'writing',
    'foreign languages',
    'spanish',
    'mandarin',
  ]),
  category('sports', [
    'gymnastics',
    'cheerleading',
    'track and field',
    'soccer',
    'tumbling',
    'tennis',
    'softball',
    'swimming',
    'volleyball',
    'baseball',
    'open gym',
    'basketball',
    'martial arts',
  ]),
  category('outdoor and adventure', [
    'horseback riding',
    'camping',
    'hiking',
    'fishing',
    'rock climbing',
    'nature exploration',
    'archery',
    'canoeing',
    'survival skills',
  ]),
  category('stem', [
    'gaming',
    '3d printing',
    'science',
    'minecraft',
    'robotics',
    'astronomy',
    'engineering',
    'coding',
    'biology',
  ]),
  category('art', [
    'creative play',
    'painting',
    'ceramic',
    'photography',
    'craft',
    'digital art',
    'drawing',
  ]),
  category('cooking', []),
  category('activities', []),
]

/** A keyword page: a category, or a subcategory with its category. */
export interface ActivityKeyword {
  slug: string
  label: string
  category: ActivityCategory
  subcategory: Labelled | null
}

export const ACTIVITY_KEYWORDS: readonly ActivityKeyword[] = ACTIVITY_CATEGORIES.flatMap((c) => [
  { slug: c.slug, label: c.slug === 'stem' ? 'STEM' : c.label, category: c, subcategory: null },
  ...c.subcategories.map((s) => ({
    slug: s.slug,
    label: s.label.replace(/^3d /, '3D ').replace(/^Dj /, 'DJ '),
    category: c,
    subcategory: s,
  })),
])

const byKeyword = new Map(ACTIVITY_KEYWORDS.map((k) => [k.slug, k]))

export function findActivityKeyword(slug: string): ActivityKeyword | undefined {
  return byKeyword.get(slug)
}

/** The product's activity age groups. */
export const ACTIVITY_AGE_GROUPS: readonly Labelled[] = [
  { code: '0-11 mos', slug: '0-11-mos', label: '0-11 mos' },
  { code: '1-3 yrs', slug: '1-3-yrs', label: '1-3 yrs' },
  { code: '4-5 yrs', slug: '4-5-yrs', label: '4-5 yrs' },
  { code: '6-11 yrs', slug: '6-11-yrs', label: '6-11 yrs' },
  { code: '12+ yrs', slug: '12-plus-yrs', label: '12+ yrs' },
]

/** The product's participation types. */
export const PARTICIPATION_TYPES: readonly Labelled<'IN_PERSON' | 'ONLINE'>[] = [
  { code: 'IN_PERSON', slug: 'in-person', label: 'In-person' },
  { code: 'ONLINE', slug: 'online', label: 'Online' },
]

/** The product's provider source: one value, naming the external activities provider. */
export const ACTIVITY_SOURCE = 'PARTNER_ACTIVITIES'
export const ACTIVITY_SOURCE_LABEL = 'our activities partner'
