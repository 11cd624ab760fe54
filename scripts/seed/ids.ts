/** The last id given out, by kind. */
export interface Ids {
  provider: number
  review: number
  job: number
  activity: number
}
