// React's output format the edge cache relies on, named so an upgrade that changes it fails
// here: a pending Suspense boundary is marked with PENDING_BOUNDARY, a resolved one is not, and
// the streamed content arrives in a hidden <div id="S:n"> of the body.
import { Suspense, use } from 'react'
import { describe, expect, it } from 'vitest'
import { PENDING_BOUNDARY, renderHtml } from '../../src/views/render-html'

function Later({ value }: { value: Promise<string> }) {
  return <p>{use(value)}</p>
}

function page(value: Promise<string>) {
  return (
    <html>
      <body>
        <Suspense fallback={<p>loading</p>}>
          <Later value={value} />
        </Suspense>
      </body>
    </html>
  )
}

const options = { status: 200, headers: {}, onStreamError: () => undefined }

describe("React's streamed boundary (PENDING_BOUNDARY)", () => {
  it('marks a section still loading when the shell is written, before its content streams', async () => {
    let resolve: (text: string) => void = () => undefined
    const value = new Promise<string>((r) => (resolve = r))
    const { response: res } = await renderHtml(page(value), { ...options, waitForAll: false })
    const reading = res.text()
    resolve('the section')
    const html = await reading
    // The fallback is written behind the mark, and the content after it, to be swapped in.
    expect(html).toContain(PENDING_BOUNDARY)
    expect(html.indexOf(PENDING_BOUNDARY)).toBeLessThan(html.indexOf('loading'))
    expect(html.indexOf('loading')).toBeLessThan(html.indexOf('the section'))
    // The content streams as a hidden body-level <div id="S:n">: the stylesheet shows it when
    // scripting is off (styles.css, `@media (scripting: none)`).
    expect(html).toMatch(/<body>.*<div hidden id="S:0"><p>the section<\/p><\/div>/s)
  })

  it('leaves no mark in a document written once every section resolved', async () => {
    const { response: res } = await renderHtml(page(Promise.resolve('the section')), {
      ...options,
      waitForAll: true,
    })
    const html = await res.text()
    expect(html).toContain('the section')
    expect(html).not.toContain(PENDING_BOUNDARY)
  })
})
