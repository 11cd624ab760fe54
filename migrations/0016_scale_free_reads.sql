-- Aggregates that let a page read a few rows whatever the catalog's size, where it used to count
-- or sum every row of a city, a state or a keyword (docs/performance.md). Derived like the other
-- stats (src/data/refresh-stats.ts): by the cron and the import for every row, by catalog sync
-- for the rows a batch touched. Filled here from what is already derived or loaded, so pages
-- read them right from the deploy that adds them.

-- service_city_stats summed per state: state pages, the national figures, a profile's state
-- links. Rates and ratings are kept as sums weighted by their counts, so summing the states
-- again gives the national means.
CREATE TABLE service_state_stats (
  service TEXT NOT NULL,
  state_code TEXT NOT NULL,
  providers INTEGER NOT NULL,
  cities INTEGER NOT NULL,             -- cities with at least one provider of the service
  leader INTEGER NOT NULL,             -- providers of the state's largest city of the service
  rate_sum REAL NOT NULL,              -- SUM(rate_avg * providers) of the cities
  rate_min INTEGER NOT NULL,
  rate_max INTEGER NOT NULL,
  pay_unit TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  checked INTEGER NOT NULL,
  reviewed INTEGER NOT NULL,
  reviews INTEGER NOT NULL,
  rating_sum REAL,                     -- SUM(rating_avg * reviewed), NULL without any rating
  PRIMARY KEY (service, state_code)
) WITHOUT ROWID;
INSERT INTO service_state_stats
SELECT service, state_code, SUM(providers), COUNT(*), MAX(providers), SUM(rate_avg * providers),
       MIN(rate_min), MAX(rate_max), MIN(pay_unit), MAX(updated_at), SUM(checked),
       SUM(reviewed), SUM(reviews), SUM(rating_avg * reviewed)
  FROM service_city_stats GROUP BY service, state_code;

-- Per city, how many providers offer exactly each set of services: a city hub counts the people
-- behind whichever services it shows from a dozen rows, not every listing of the city.
CREATE TABLE city_service_mixes (
  city_id INTEGER NOT NULL,
  services TEXT NOT NULL,              -- service slugs in slug order, comma-separated
  providers INTEGER NOT NULL,
  PRIMARY KEY (city_id, services)
) WITHOUT ROWID;
INSERT INTO city_service_mixes
SELECT city_id, services, COUNT(*) FROM (
  SELECT city_id, group_concat(service, ',' ORDER BY service) AS services
    FROM provider_services GROUP BY city_id, provider_id)
 GROUP BY city_id, services;

-- Activities per keyword (category or subcategory) and last day: a keyword page counts those not
-- yet ended from the rows of the days to come. Ongoing classes (no end date) are kept under
-- 'ongoing', which sorts after every date.
CREATE TABLE activity_ends (
  keyword TEXT NOT NULL,
  end_date TEXT NOT NULL,              -- YYYY-MM-DD, or 'ongoing'
  activities INTEGER NOT NULL,
  PRIMARY KEY (keyword, end_date)
) WITHOUT ROWID;
INSERT INTO activity_ends
SELECT category, COALESCE(end_date, 'ongoing'), COUNT(*) FROM activities GROUP BY 1, 2;
INSERT INTO activity_ends
SELECT subcategory, COALESCE(end_date, 'ongoing'), COUNT(*) FROM activities
 WHERE subcategory IS NOT NULL GROUP BY 1, 2;
