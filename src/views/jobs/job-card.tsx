import { JOB_SCHEDULES } from '../../catalog/jobs'
import type { JobCard } from '../../data/jobs'
import { jobPath } from '../../urls/paths'
import type { CardModel } from '../listing/listing-state'
import { count, postedAgo, rateRange, startLabel } from '../parts/format'

export function scheduleLabel(job: Pick<JobCard, 'schedule' | 'hoursPerWeek'>): string {
  const label = JOB_SCHEDULES.find((s) => s.code === job.schedule)?.label ?? job.schedule
  return job.hoursPerWeek ? `${label}, ${count(job.hoursPerWeek, 'hour', 'hours')} a week` : label
}

/** A job in a listing: title, pay, schedule, start date, posted age, city. */
export function jobCard(job: JobCard, now: Date): CardModel {
  return {
    key: `j${job.id}`,
    anchor: null,
    avatar: null,
    title: job.title,
    href: jobPath(job),
    lines: [
      { kind: 'text', className: 'rate', text: rateRange(job.payMin, job.payMax, job.payUnit) },
      {
        kind: 'text',
        className: 'meta',
        text: `${scheduleLabel(job)} · Starts: ${startLabel(job.startDate, now)}`,
      },
      {
        kind: 'text',
        className: 'meta',
        text: `${postedAgo(job.postedAt, now)} · ${job.cityName}, ${job.stateCode} · ${job.employer ?? 'Family'}`,
      },
    ],
  }
}
