// Sentence parts for headlines, bios and reviews, per service family. Composed by the
// generator so that every profile reads like a person wrote it about their own work, and no
// page says the same sentence twice (docs/data.md, "Texts"). `{years}` is "1 year" or
// "6 years": the generator says it in the right number.

import type { VerticalCode } from '../../src/catalog/verticals'

export type Family = VerticalCode | 'DAYCARE'

export const HEADLINES: Record<Family, readonly string[]> = {
  CHILDCARE: [
    'Fun, patient sitter with {years} of experience',
    'Reliable {noun} who loves arts, crafts and outdoor play',
    'CPR-certified {noun} for infants through school age',
    'Warm, organized {noun} with great references',
    'Former preschool aide, now a full-time {noun}',
    'Bilingual {noun} available evenings and weekends',
    'Experienced {noun} for busy families',
  ],
  SENIRCARE: [
    'Compassionate senior caregiver with {years} of experience',
    'Companion care, meals and errands for older adults',
    'Certified nursing assistant offering in-home care',
    'Patient caregiver experienced with memory care',
    'Dependable help with bathing, mobility and appointments',
  ],
  HOUSEKEEP: [
    'Detail-oriented housekeeper with {years} of experience',
    'Reliable cleaning: kitchens, bathrooms and deep cleans',
    'Weekly and bi-weekly home cleaning',
    'Thorough, trustworthy house cleaner with my own supplies',
    'Move-out and deep cleaning specialist',
  ],
  TUTORINGX: [
    '{subject} tutor with {years} of teaching experience',
    'Patient {subject} tutor for elementary through high school',
    'Certified teacher offering {subject} and homework help',
    'Test prep and {subject} tutoring, in person or online',
    'College student tutoring {subject} with proven results',
  ],
  PETCAREXX: [
    'Dog walker and pet sitter with {years} of experience',
    'Loving pet sitter for dogs, cats and small animals',
    'Reliable daily walks and drop-in visits',
    'Experienced with puppies, seniors and special-needs pets',
    'Overnight pet sitting in your home',
  ],
  CAREGIGSX: [
    'Organized personal assistant for errands and projects',
    'Errands, event help and home organizing',
    'Flexible helper for moving days and office tasks',
    'Dependable assistant with a reliable car',
  ],
  SPCLNEEDS: [
    'Special needs caregiver with {years} of experience',
    'Patient caregiver experienced with autism and ADHD',
    'Former paraprofessional supporting children with special needs',
    'Calm, structured care for children and young adults',
  ],
  DAYCARE: [
    'Licensed daycare with a play-based curriculum',
    'Small, home-like daycare with experienced teachers',
    'Early learning center for infants through pre-K',
    'Daycare with outdoor play space and healthy meals',
  ],
  AU_PAIR: [
    'Cheerful au pair from {country} with {years} of child care experience',
    'Au pair from {country}: bilingual play, school runs and homework help',
    'Live-in au pair who loves outdoor play and crafts',
    'Experienced au pair, great with toddlers and school-age kids',
  ],
  ERRANDS: [
    'Reliable errand runner with a car and a flexible schedule',
    'Groceries, pharmacy pickups and returns, done the same day',
    'Errands and appointments: I get them off your list',
    'Dependable help with shopping, deliveries and rides',
  ],
}

export const INTROS: Record<Family, readonly string[]> = {
  CHILDCARE: [
    "Hi, I'm {first}! I have been caring for children for {years}, from newborns to busy school-agers.",
    "I'm {first}, a {noun} in {city} who believes kids learn best through play.",
    'Hello! My name is {first} and I have {years} of experience caring for children of all ages.',
  ],
  SENIRCARE: [
    "I'm {first}, and I have spent {years} helping older adults stay safe and independent at home.",
    'Hello, my name is {first}. Caring for seniors has been my work for {years}.',
    "I'm {first}, a caregiver in {city} who treats every client like family.",
  ],
  HOUSEKEEP: [
    "I'm {first}, and I have been cleaning homes in {city} for {years}.",
    'Hi! My name is {first}. I take pride in leaving every home spotless.',
    "I'm {first}, an experienced housekeeper who pays attention to the details.",
  ],
  TUTORINGX: [
    "I'm {first}, and I have tutored students for {years}.",
    'Hi! My name is {first}. I help students build confidence and real understanding.',
    "I'm {first}, a tutor in {city} who makes hard subjects make sense.",
  ],
  PETCAREXX: [
    "I'm {first}, and I have cared for dogs and cats for {years}.",
    'Hi! My name is {first}. Animals have always been my favorite people.',
    "I'm {first}, a pet sitter in {city} who treats every pet like my own.",
  ],
  CAREGIGSX: [
    "I'm {first}, an organized, friendly helper with {years} of experience.",
    'Hi! My name is {first}. I help busy people get things done.',
  ],
  SPCLNEEDS: [
    "I'm {first}, and I have supported children and young adults with special needs for {years}.",
    'Hello, my name is {first}. I bring patience, structure and lots of encouragement.',
  ],
  DAYCARE: [
    '{business} has cared for children in {city} for {years}.',
    'Welcome to {business}, a licensed daycare serving families in {city} for {years}.',
  ],
  AU_PAIR: [
    "Hi, I'm {first} from {country}, and I have cared for children for {years}.",
    "I'm {first}, an au pair from {country} looking forward to a year with a family in {city}.",
  ],
  ERRANDS: [
    "I'm {first}, and I have been running errands for families in {city} for {years}.",
    'Hi! My name is {first}. I take the small jobs off your list so you have time for the rest.',
  ],
}

export const DETAILS: Record<Family, readonly string[]> = {
  CHILDCARE: [
    'I am comfortable with meal prep, homework help, bath and bedtime routines.',
    'I love reading, crafts and getting kids outside for some fresh air.',
    'Parents tell me I am calm, punctual and great at keeping little ones busy.',
    'I am happy to help with light housekeeping and school pick-ups.',
  ],
  SENIRCARE: [
    'I can help with personal care, meals, medication reminders and getting to appointments.',
    'I have experience with dementia, mobility limits and recovery after surgery.',
    'Families count on me for clear updates and a steady, respectful presence.',
  ],
  HOUSEKEEP: [
    'I handle kitchens, bathrooms, floors, laundry and the jobs nobody else wants to do.',
    'I bring my own supplies and am happy to use yours if you prefer.',
    'I am flexible with scheduling and glad to follow your checklist.',
  ],
  TUTORINGX: [
    'I tailor each session to how the student learns and keep parents updated on progress.',
    'I help with homework, test prep and study skills.',
    'My students usually see their grades improve within a few weeks.',
  ],
  PETCAREXX: [
    'I can give medications, handle leash-pulling dogs and keep to feeding schedules.',
    'I send photos and updates after every visit.',
    'I am comfortable with large dogs, shy cats and senior pets.',
  ],
  CAREGIGSX: [
    'I can run errands, wait for deliveries, organize closets and help at events.',
    'I have a reliable car and a flexible schedule.',
  ],
  SPCLNEEDS: [
    'I use visual schedules, positive reinforcement and lots of patience.',
    'I am experienced with feeding support, transfers and sensory needs.',
    'I work closely with parents and therapists to keep routines consistent.',
  ],
  DAYCARE: [
    'Our teachers follow a play-based curriculum with music, art and outdoor time every day.',
    'We serve healthy meals and snacks and keep parents updated through the day.',
    'Our small groups give every child plenty of individual attention.',
  ],
  AU_PAIR: [
    'I can take the kids to school and activities, help with homework and cook simple meals.',
    'I would love to share my language and culture with your children.',
    'I have babysat for neighbors and cousins since I was a teenager.',
  ],
  ERRANDS: [
    'I have a reliable car and know every store and pharmacy in town.',
    'I send a photo of every receipt and keep to your shopping list.',
    'I am happy to wait at home for a delivery or a repair visit.',
  ],
}

/** Where au pairs come from, and the language each speaks besides English. */
export const AU_PAIR_COUNTRIES: readonly { country: string; language: string }[] = [
  { country: 'Germany', language: 'GERMAN' },
  { country: 'Brazil', language: 'PORTUGUESE_BRAZIL' },
  { country: 'Colombia', language: 'SPANISH' },
  { country: 'Mexico', language: 'SPANISH' },
  { country: 'Spain', language: 'SPANISH' },
  { country: 'France', language: 'FRENCH' },
  { country: 'Italy', language: 'ITALIAN' },
  { country: 'the Netherlands', language: 'DUTCH' },
  { country: 'South Africa', language: 'AFRIKAANS' },
  { country: 'Poland', language: 'POLISH' },
  { country: 'Ukraine', language: 'UKRAINIAN' },
  { country: 'Japan', language: 'JAPANESE' },
  { country: 'the Philippines', language: 'TAGALOG' },
]

export const CLOSINGS: readonly string[] = [
  'I would love to hear about your family and what you need.',
  'Send me a message and let us find a time to meet.',
  'References are available on request.',
  'Looking forward to meeting you!',
]

/**
 * A review is an opening, a detail and a closing of its tone, never a sentence another review
 * of the same provider already says: openings name the provider, so two reviews differ even
 * where they share a part.
 */
export const REVIEW_PARTS: Record<
  'great' | 'good' | 'mixed',
  { openings: readonly string[]; details: readonly string[]; closings: readonly string[] }
> = {
  great: {
    openings: [
      '{first} was wonderful.',
      'We could not be happier with {first}.',
      'Highly recommend {first}!',
      '{first} has been a huge help to our family.',
      'Booking {first} was the best decision we made this year.',
      '{first} exceeded every expectation we had.',
      'Five stars for {first}, without a doubt.',
      'Our whole family adores {first}.',
      'So glad we found {first}.',
      '{first} made our week so much easier.',
      'We trust {first} completely.',
      'Everything went perfectly with {first}.',
    ],
    details: [
      'Always on time, with great communication.',
      'Reliable, kind and truly great at the work.',
      'Professional and warm, and went above and beyond every time.',
      'Every visit ended with a clear update on how things went.',
      'Calm under pressure and full of good ideas.',
      'Flexible when our plans changed at the last minute.',
      'Paid attention to the small things we had mentioned only once.',
      'We felt completely at ease from the first day.',
      'Handled a surprise change of plans without any fuss.',
      'Left everything tidier than before.',
      'Answered every message within the hour.',
      'Brought real care and good humor to every visit.',
    ],
    closings: [
      'We will definitely book again.',
      'We already have the next dates on the calendar.',
      'I have recommended them to all our friends.',
      'Could not ask for better.',
      'Thank you for everything!',
      'We feel lucky to have found them.',
      'Already booked for next month.',
      'A real gem.',
      'Worth every penny.',
      'Our first call from now on.',
    ],
  },
  good: {
    openings: [
      '{first} did a good job.',
      'Solid experience with {first}.',
      '{first} was friendly and dependable.',
      'We were happy with {first} overall.',
      'A good first booking with {first}.',
    ],
    details: [
      'Easy to work with and did what we asked.',
      'A couple of small hiccups with scheduling, but nothing serious.',
      'Communicated well before and after each visit.',
      'Took a little time to learn our routine, then it went smoothly.',
      'Punctual and polite, if a bit quiet.',
    ],
    closings: [
      'Would book again.',
      'We will likely call again.',
      'Worth a try.',
      'Good value for the rate.',
    ],
  },
  mixed: {
    openings: [
      'It was fine, but not great, with {first}.',
      'Mixed experience with {first}.',
      '{first} is a nice person, but it was not the right fit.',
    ],
    details: [
      'Arrived late twice, and we had to repeat instructions.',
      'A few things on our list were left undone.',
      'Communication between visits was slow.',
    ],
    closings: [
      'Maybe better for a different family.',
      'We decided to keep looking.',
      'Might work for simpler needs.',
    ],
  },
}

/**
 * Headlines are an opening and a strength of the family: enough combinations that no two
 * providers of a city share one (the generator picks again when one is taken).
 */
export const HEADLINE_STRENGTHS: Record<Family, readonly string[]> = {
  CHILDCARE: [
    'for infants through school age',
    'available evenings and weekends',
    'who loves arts, crafts and outdoor play',
    'with great references',
    'for busy families',
    'with CPR and first aid training',
    'who helps with homework',
    'for date nights and school pick-ups',
  ],
  SENIRCARE: [
    'for companionship, meals and errands',
    'experienced with memory care',
    'for bathing, mobility and appointments',
    'offering in-home care',
    'for overnight and respite care',
    'who keeps families updated',
  ],
  HOUSEKEEP: [
    'for kitchens, bathrooms and deep cleans',
    'for weekly and bi-weekly cleaning',
    'with my own supplies',
    'for move-out cleaning',
    'for laundry and organizing',
    'who follows your checklist',
  ],
  TUTORINGX: [
    'for elementary through high school',
    'offering homework help',
    'for test prep',
    'in person or online',
    'with proven results',
    'who builds confidence',
  ],
  PETCAREXX: [
    'for dogs, cats and small animals',
    'for daily walks and drop-in visits',
    'for puppies and senior pets',
    'for overnight stays in your home',
    'who sends photos after every visit',
    'comfortable giving medications',
  ],
  CAREGIGSX: [
    'for errands and projects',
    'for events and home organizing',
    'for moving days and office tasks',
    'with a reliable car',
    'with a flexible schedule',
  ],
  SPCLNEEDS: [
    'experienced with autism and ADHD',
    'for children and young adults',
    'who uses visual schedules',
    'with calm, structured routines',
    'who works with your therapists',
  ],
  DAYCARE: [
    'with a play-based curriculum',
    'with experienced teachers',
    'for infants through pre-K',
    'with outdoor play space and healthy meals',
    'with small groups',
  ],
  AU_PAIR: [
    'who loves outdoor play and crafts',
    'great with toddlers and school-age kids',
    'for school runs and homework help',
    'who shares a language and a culture',
  ],
  ERRANDS: [
    'with a car and a flexible schedule',
    'for groceries, pharmacy pickups and returns',
    'who gets things done the same day',
    'for shopping, deliveries and rides',
  ],
}

export const STREETS = [
  'Oak',
  'Maple',
  'Pine',
  'Cedar',
  'Elm',
  'Park',
  'Lake',
  'Hill',
  'Washington',
  'Lincoln',
  'Jefferson',
  'Main',
  'Church',
  'Highland',
  'Sunset',
  'Meadow',
  'River',
  'Spring',
] as const
export const STREET_TYPES = ['St', 'Ave', 'Rd', 'Blvd', 'Dr', 'Ln', 'Way'] as const
export const DAYCARE_NAMES = [
  'Little Sprouts',
  'Bright Beginnings',
  'Sunshine Kids',
  'Tiny Treasures',
  'Kids Academy',
  'Busy Bees',
  'Learning Tree',
  'Happy Hearts',
  'Rainbow Garden',
  'Stepping Stones',
] as const
export const DAYCARE_KINDS = [
  'Daycare',
  'Early Learning Center',
  'Child Development Center',
  'Preschool & Daycare',
  'Montessori',
] as const

export const EDUCATION = [
  'High school diploma',
  'Some college',
  "Associate's degree",
  "Bachelor's degree",
  "Master's degree",
] as const
