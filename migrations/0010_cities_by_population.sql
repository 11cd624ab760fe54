-- The home page links the largest cities: walked in population order, it stops after the few it
-- shows instead of sorting every city.
CREATE INDEX cities_population ON cities (population DESC);
