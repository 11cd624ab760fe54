-- rate_experience_stats summed per state, as service_state_stats sums service_city_stats: a
-- catalog sync batch sums a touched service's national rates by experience from these (one row
-- per state and band) instead of from every city's rows. Derived like the other rollups
-- (src/data/rollups.ts); filled here from the rows already derived.
CREATE TABLE rate_experience_state_stats (
  service TEXT NOT NULL,
  state_code TEXT NOT NULL,
  band INTEGER NOT NULL,               -- index into EXPERIENCE_BANDS (src/catalog/cost-guides.ts)
  providers INTEGER NOT NULL,
  rate_sum REAL NOT NULL,              -- SUM(rate_avg * providers) of the cities
  PRIMARY KEY (service, state_code, band)
) WITHOUT ROWID;

INSERT INTO rate_experience_state_stats
SELECT r.service, c.state_code, r.band, SUM(r.providers), SUM(r.rate_avg * r.providers)
  FROM rate_experience_stats r JOIN cities c ON c.id = r.city_id
 WHERE r.city_id <> 0
 GROUP BY r.service, c.state_code, r.band;
