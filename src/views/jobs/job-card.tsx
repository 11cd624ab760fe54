import { JOB_SCHEDULES } from '../../catalog/jobs'
import type { JobCard } from '../../data/jobs'
import { jobPath } from '../../routes/paths'
import { postedAgo, rateRange, startLabel } from '../shared/format'

export function scheduleLabel(job: Pick<JobCard, 'schedule' | 'hoursPerWeek'>): string {
  const label = JOB_SCHEDULES.find((s) => s.code === job.schedule)?.label ?? job.schedule
  return job.hoursPerWeek ? `${label}, ${job.hoursPerWeek} hours a week` : label
}

/** A job in a listing: title, pay, schedule, start date, posted age, city. */
export function JobCardView({ job, now }: { job: JobCard; now: Date }) {
  return (
    <li className="card">
      <div>
        <h3>
          <a href={jobPath(job)}>{job.title}</a>
        </h3>
        <p className="rate">{rateRange(job.payMin, job.payMax, job.payUnit)}</p>
        <p className="meta">{`${scheduleLabel(job)} · Starts: ${startLabel(job.startDate, now)}`}</p>
        <p className="meta">{`${postedAgo(job.postedAt, now)} · ${job.cityName}, ${job.stateCode} · ${job.jobType === 'SMB_JOB' ? job.employer : 'Family'}`}</p>
      </div>
    </li>
  )
}
