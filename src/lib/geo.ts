// Distances on the Earth's surface, in miles, with one radius: the cards' distances, the nearest
// cities and the bounding boxes that D1 filters by all agree.

/** The Earth's mean radius in miles. */
export const EARTH_RADIUS_MILES = 3958.8

/** Miles in a degree of latitude (and of longitude at the equator). */
export const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180

export interface Point {
  lat: number
  lng: number
}

/** Great-circle distance in miles (haversine). */
export function milesBetween(a: Point, b: Point): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * Miles in a degree of longitude at `lat`: what an index range or an equirectangular distance in
 * SQL scales longitudes by (kept above zero near the poles).
 */
export function milesPerLngDegree(lat: number): number {
  return MILES_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 0.01)
}

/** The latitude band and longitude range around `point` that hold every place within `miles`. */
export function box(point: Point, miles: number): [number, number, number, number] {
  const dLat = miles / MILES_PER_DEGREE
  const dLng = miles / milesPerLngDegree(point.lat)
  return [point.lat - dLat, point.lat + dLat, point.lng - dLng, point.lng + dLng]
}
