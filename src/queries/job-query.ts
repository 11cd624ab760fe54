import { RATE_BANDS } from '../catalog/filters'
import type { JobSchedule, JobService, JobType } from '../catalog/jobs'
import { HOURS_BANDS, JOB_SCHEDULES, JOB_TYPES } from '../catalog/jobs'
import type { FilterField } from './filter-fields'
import { sortField } from './listing-query'
import type { Sort } from '../catalog/enums'
import { DEFAULT_SORT } from '../catalog/enums'
import type { ParseResult } from './query-params'
import { readQuery, searchOf, slugsOf } from './query-params'

// The query of a job listing: the product's job filters (schedule Any/Full time/Part time/One
// time/recurring, pay rate, job type, hours, ages), sort and page.

export interface JobQuery {
  schedule: JobSchedule | null
  rate: { low: number; high: number } | null
  jobType: JobType | null
  /** Half-open: `from` hours a week up to but not including `below` (null: no upper end). */
  hours: { value: string; from: number; below: number | null } | null
  /** Bitmask over the ages of the job's service; 0 means any. */
  ages: number
  sort: Sort
  page: number
}

export function parseJobQuery(params: URLSearchParams, jobs: JobService): ParseResult<JobQuery> {
  return readQuery(params, (r) => {
    const rate = r.pick('rate', RATE_BANDS, (b) => b.value)
    const hours = r.pick('hours', HOURS_BANDS, (b) => b.value)
    return {
      schedule: r.pick('schedule', JOB_SCHEDULES, (s) => s.slug)?.code ?? null,
      rate: rate && { low: rate.low, high: rate.high },
      jobType: r.pick('jobType', JOB_TYPES, (t) => t.slug.toLowerCase())?.code ?? null,
      hours: hours && { value: hours.value, from: hours.from, below: hours.below },
      ages: jobs.service.ages.length ? r.mask('ages', jobs.service.ages) : 0,
      sort: r.sort(),
      page: r.page(),
    }
  })
}

export function isJobQueryFiltered(q: JobQuery): boolean {
  return (
    q.schedule !== null ||
    q.rate !== null ||
    q.jobType !== null ||
    q.hours !== null ||
    q.ages !== 0 ||
    q.sort !== DEFAULT_SORT
  )
}

export function jobSearch(q: JobQuery, jobs: JobService): string {
  return searchOf({
    ages: slugsOf(q.ages, jobs.service.ages),
    hours: q.hours?.value ?? null,
    jobType: JOB_TYPES.find((t) => t.code === q.jobType)?.slug ?? null,
    page: q.page > 1 ? q.page : null,
    rate: q.rate && `${q.rate.low}-${q.rate.high}`,
    schedule: JOB_SCHEDULES.find((s) => s.code === q.schedule)?.slug ?? null,
    sort: q.sort === DEFAULT_SORT ? null : q.sort,
  })
}

export function jobFilterFields(jobs: JobService, q: JobQuery): FilterField[] {
  const fields: FilterField[] = [
    {
      kind: 'select',
      name: 'schedule',
      label: 'Schedule',
      value: JOB_SCHEDULES.find((s) => s.code === q.schedule)?.slug ?? '',
      options: [
        { value: '', label: 'Any' },
        ...JOB_SCHEDULES.map((s) => ({ value: s.slug, label: s.label })),
      ],
    },
    {
      kind: 'select',
      name: 'rate',
      label: 'Hourly pay',
      value: q.rate ? `${q.rate.low}-${q.rate.high}` : '',
      options: [
        { value: '', label: 'Any pay' },
        ...RATE_BANDS.map((b) => ({ value: b.value, label: b.label })),
      ],
    },
    {
      kind: 'select',
      name: 'jobType',
      label: 'Posted by',
      value: JOB_TYPES.find((t) => t.code === q.jobType)?.slug ?? '',
      options: [
        { value: '', label: 'Families and businesses' },
        ...JOB_TYPES.map((t) => ({ value: t.slug, label: t.label })),
      ],
    },
    {
      kind: 'select',
      name: 'hours',
      label: 'Hours',
      value: q.hours?.value ?? '',
      options: [
        { value: '', label: 'Any hours' },
        ...HOURS_BANDS.map((b) => ({ value: b.value, label: b.label })),
      ],
    },
    sortField(q.sort),
  ]
  if (jobs.service.ages.length) {
    fields.push({
      kind: 'checks',
      name: 'ages',
      legend: "Children's ages",
      items: jobs.service.ages,
      mask: q.ages,
    })
  }
  return fields
}
