-- What a directory, state page or cost guide says of a service's providers in a city beyond
-- their rates (docs/pages.md, "Answers"): how many passed a background check, how many have
-- reviews, how many reviews in all and their mean rating. Recomputed with the rest of the row
-- (src/data/refresh-stats.ts); 0 and NULL until the next refresh.
ALTER TABLE service_city_stats ADD COLUMN checked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE service_city_stats ADD COLUMN reviewed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE service_city_stats ADD COLUMN reviews INTEGER NOT NULL DEFAULT 0;
ALTER TABLE service_city_stats ADD COLUMN rating_avg REAL;
