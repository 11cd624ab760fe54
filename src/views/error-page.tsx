import { Document } from './document'
import type { Head } from '../seo/head'

/** The product's error titles (docs/request-flow.md, "The pipeline"). */
export const ERROR_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  410: 'This page has been removed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}
export const CLIENT_ERROR_TITLE = 'Application error: a client-side exception has occurred'

export function errorTitle(status: number): string {
  return ERROR_TITLES[status] ?? (status >= 500 ? ERROR_TITLES[500] : ERROR_TITLES[400]) ?? ''
}

export function ErrorPage({
  status,
  detail,
  head,
}: {
  status: number
  detail?: string
  head: Head
}) {
  return (
    <Document head={head}>
      <div className="error-page">
        <h1>{`${status}: ${errorTitle(status)}`}</h1>
        {detail ? <p>{detail}</p> : null}
        <p>
          <a href="/child-care">Find child care</a> · <a href="/senior-care">Find senior care</a>
        </p>
      </div>
    </Document>
  )
}
