-- A catalog shard (docs/scale.md): the providers, their listings and reviews, and the jobs of
-- the cities its layout places on it, with their sync versions; its own cities' stats; a copy of
-- the cities (the pages' joins need a city's name and place); and the outbox of the control
-- writes its changes imply. Applied to every shard. Each table as the single-database schema in
-- migrations/ defines it (a test holds the two to each other), the outbox added.

CREATE TABLE cities (
  id INTEGER PRIMARY KEY,              -- GeoNames id of the place
  slug TEXT NOT NULL UNIQUE,           -- atlanta-ga
  name TEXT NOT NULL,
  state_code TEXT NOT NULL,            -- GA
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  population INTEGER NOT NULL
);

CREATE INDEX cities_lat ON cities (lat);

CREATE TABLE providers (
  id INTEGER PRIMARY KEY,
  name_slug TEXT NOT NULL,             -- maria-g: the name part of /p/{name-slug}-{id}
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  business_type TEXT NOT NULL,         -- CAREGIVER | SMB
  business_name TEXT,                  -- SMB only
  city_id INTEGER NOT NULL REFERENCES cities (id),
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  headline TEXT NOT NULL,
  bio TEXT NOT NULL,
  photo_url TEXT,                      -- NULL: the page draws an initials avatar
  years_experience INTEGER NOT NULL,
  badges INTEGER NOT NULL,             -- bitmask of BADGES
  availability INTEGER NOT NULL,       -- bitmask of WEEKDAYS
  traits INTEGER NOT NULL,             -- bitmask of TRAITS
  languages TEXT NOT NULL,             -- comma-separated LANGUAGES
  certifications TEXT NOT NULL,        -- comma-separated CERTIFICATIONS
  education TEXT,
  rating REAL,                         -- average OVERALL rating of the reviews, NULL without any
  review_count INTEGER NOT NULL,
  capacity INTEGER,                    -- SMB only
  opening_hours TEXT,                  -- SMB only: "7:00 AM – 6:00 PM"
  address TEXT,                        -- SMB only: street address
  created_at TEXT NOT NULL,            -- ISO 8601, UTC
  updated_at TEXT NOT NULL
);

CREATE TABLE provider_services (
  provider_id INTEGER NOT NULL REFERENCES providers (id),
  service TEXT NOT NULL,               -- service slug (src/catalog/services.ts)
  city_id INTEGER NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  rank_score REAL NOT NULL,            -- RECOMMENDED order, higher first
  created_at TEXT NOT NULL,            -- NEWEST order
  rate_min INTEGER NOT NULL,           -- whole US dollars per pay_unit
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,              -- hr | wk | …
  years_experience INTEGER NOT NULL,
  badges INTEGER NOT NULL,
  availability INTEGER NOT NULL,
  ages INTEGER NOT NULL,               -- bitmask of the service's age list
  options INTEGER NOT NULL,            -- bitmask of the service's option list
  schedules INTEGER NOT NULL,          -- bitmask of the service's schedule list
  PRIMARY KEY (provider_id, service)
);

CREATE INDEX provider_services_recommended
  ON provider_services (service, city_id, rank_score DESC, provider_id);

CREATE INDEX provider_services_newest
  ON provider_services (service, city_id, created_at DESC, provider_id);

CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  provider_id INTEGER NOT NULL REFERENCES providers (id),
  service TEXT NOT NULL,
  author TEXT NOT NULL,                -- "Jennifer K."
  rating INTEGER NOT NULL,             -- OVERALL, 1–5
  ratings TEXT NOT NULL,               -- JSON: rating category → 1–5
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE INDEX reviews_provider ON reviews (provider_id, created_at DESC);

CREATE TABLE service_city_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of each provider's mid rate
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,
  updated_at TEXT NOT NULL, checked INTEGER NOT NULL DEFAULT 0, reviewed INTEGER NOT NULL DEFAULT 0, reviews INTEGER NOT NULL DEFAULT 0, rating_avg REAL,
  PRIMARY KEY (service, city_id)
) WITHOUT ROWID;

CREATE INDEX service_city_stats_top ON service_city_stats (service, providers DESC);

CREATE INDEX service_city_stats_state ON service_city_stats (service, state_code, providers DESC);

CREATE INDEX service_city_stats_city ON service_city_stats (city_id);

CREATE TABLE catalog_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

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

CREATE TABLE rate_experience_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,            -- 0: national
  band INTEGER NOT NULL,               -- index into EXPERIENCE_BANDS (src/catalog/cost-guides.ts)
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of the providers' mid rates
  PRIMARY KEY (service, city_id, band)
) WITHOUT ROWID;

CREATE INDEX cities_population ON cities (population DESC);

CREATE TABLE sync_versions (
  key TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  removed INTEGER NOT NULL             -- 0 | 1
) WITHOUT ROWID;

CREATE TABLE sync_touched (
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  PRIMARY KEY (kind, value, city_id)
) WITHOUT ROWID;

CREATE TABLE city_service_mixes (
  city_id INTEGER NOT NULL,
  services TEXT NOT NULL,              -- service slugs in slug order, comma-separated
  providers INTEGER NOT NULL,
  PRIMARY KEY (city_id, services)
) WITHOUT ROWID;

CREATE INDEX jobs_valid_through ON jobs (valid_through);

-- The control writes a shard's changes imply (directory rows, the touched cities' stats rows,
-- purge tags), written in the same transaction as the changes: control applies them in `seq`
-- order and records the last one applied (outbox_applied), then they are deleted here.
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  body TEXT NOT NULL                   -- JSON
);
