/**
 * What the browser script needs to report errors and sample traces (src/client/report.ts),
 * carried in the page as JSON. The browser DSN is a public, separate key: the server's
 * SENTRY_DSN secret never appears in a page.
 */
export interface ClientConfig {
  dsn: string | null
  release: string
  environment: string
  traceSampleRate: number
  pageType: string | null
}

export const CLIENT_CONFIG_ID = 'client-config'
