-- Jobs posted by families (SEEKER_JOB) and businesses (SMB_JOB), and their per-city counts.

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  title_slug TEXT NOT NULL,            -- the name part of /job/{title-slug}-{id}
  title TEXT NOT NULL,
  service TEXT NOT NULL,               -- job service slug (src/catalog/jobs.ts)
  job_type TEXT NOT NULL,              -- SEEKER_JOB | SMB_JOB
  employer TEXT NOT NULL,              -- "Jennifer K." or a business name
  city_id INTEGER NOT NULL REFERENCES cities (id),
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  description TEXT NOT NULL,
  pay_min INTEGER NOT NULL,            -- whole US dollars per pay_unit
  pay_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,              -- day | hr | mo | wk | flat | night | session
  schedule TEXT NOT NULL,              -- FULL_TIME | PART_TIME | ONE_TIME | RECURRING
  hours_per_week INTEGER,              -- NULL for one-time jobs
  start_date TEXT NOT NULL,            -- YYYY-MM-DD
  children INTEGER NOT NULL,           -- how many children, 0 when not a child care job
  ages INTEGER NOT NULL,               -- bitmask of the service's age list
  requirements INTEGER NOT NULL,       -- bitmask of JOB_REQUIREMENTS
  rank_score REAL NOT NULL,
  posted_at TEXT NOT NULL,             -- ISO 8601, UTC
  valid_through TEXT NOT NULL          -- ISO 8601, UTC: from this moment the job is expired (410)
);
CREATE INDEX jobs_recommended ON jobs (service, city_id, rank_score DESC, id);
CREATE INDEX jobs_newest ON jobs (service, city_id, posted_at DESC, id);

-- Open jobs per service and city, counted by src/data/refresh-stats.ts.
CREATE TABLE job_city_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  jobs INTEGER NOT NULL,
  pay_avg REAL,                        -- mean hourly mid pay of the hourly jobs, NULL without any
  updated_at TEXT NOT NULL,
  PRIMARY KEY (service, city_id)
) WITHOUT ROWID;
CREATE INDEX job_city_stats_city ON job_city_stats (city_id);
