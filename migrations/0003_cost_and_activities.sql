-- Rates by years of experience, per service and city (city_id 0 is the whole country), for the
-- cost guides; and camps and activities.

CREATE TABLE rate_experience_stats (
  service TEXT NOT NULL,
  city_id INTEGER NOT NULL,            -- 0: national
  band INTEGER NOT NULL,               -- index into EXPERIENCE_BANDS (src/catalog/cost-guides.ts)
  providers INTEGER NOT NULL,
  rate_avg REAL NOT NULL,              -- mean of the providers' mid rates
  PRIMARY KEY (service, city_id, band)
) WITHOUT ROWID;

CREATE TABLE activities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  organizer TEXT NOT NULL,
  source TEXT NOT NULL,                -- the partner that listed it (ACTIVITY_SOURCE)
  category TEXT NOT NULL,              -- category keyword: music, outdoor-and-adventure, …
  subcategory TEXT,                    -- subcategory keyword: hip-hop, 3d-printing, …; NULL for cooking, activities
  participation TEXT NOT NULL,         -- IN_PERSON | ONLINE
  ages INTEGER NOT NULL,               -- bitmask of ACTIVITY_AGE_GROUPS
  days INTEGER NOT NULL,               -- bitmask of WEEKDAYS
  start_date TEXT,                     -- YYYY-MM-DD; NULL for ongoing classes
  end_date TEXT,
  is_camp INTEGER NOT NULL,            -- 0 | 1
  price INTEGER NOT NULL,              -- whole US dollars per price_unit
  price_unit TEXT NOT NULL,            -- session | wk | mo | flat
  description TEXT NOT NULL,
  city_id INTEGER REFERENCES cities (id), -- NULL when online
  venue TEXT,
  address TEXT,
  rank_score REAL NOT NULL
);
-- A keyword page reads one category or subcategory in date order; undated classes sort first
-- as NULL and are always current.
CREATE INDEX activities_category ON activities (category, start_date, id);
CREATE INDEX activities_subcategory ON activities (subcategory, start_date, id);

-- Activities not yet ended, per category and per subcategory keyword (src/data/refresh-stats.ts).
CREATE TABLE activity_stats (
  keyword TEXT PRIMARY KEY,
  activities INTEGER NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
