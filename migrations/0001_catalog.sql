-- The catalog: real US places, providers, the services they offer, their reviews.
-- Lists stored as bitmasks index into the lists of src/catalog (enums.ts, options.ts).

CREATE TABLE cities (
  id INTEGER PRIMARY KEY,              -- GeoNames id of the place
  slug TEXT NOT NULL UNIQUE,           -- atlanta-ga
  name TEXT NOT NULL,
  state_code TEXT NOT NULL,            -- GA
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  population INTEGER NOT NULL
);
-- Nearby cities: a latitude band, then longitude and distance on the few rows in it.
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

-- One row per provider and service: the listing. Filterable fields are copied from the
-- provider so a directory page filters, sorts and counts on one index range.
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

-- Per service and city: counts and rate figures aggregated from provider_services by SQL
-- (src/data/refresh-stats.ts), read by hub pages, rate summaries and the indexability rule.
CREATE TABLE service_city_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of each provider's mid rate
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (service, city_id)
) WITHOUT ROWID;
CREATE INDEX service_city_stats_top ON service_city_stats (service, providers DESC);
CREATE INDEX service_city_stats_state ON service_city_stats (service, state_code, providers DESC);
CREATE INDEX service_city_stats_city ON service_city_stats (city_id);

CREATE TABLE catalog_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
