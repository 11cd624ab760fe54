/** Page numbers to show: first, last, and two either side of the current page. */
export function pageWindow(current: number, last: number): (number | null)[] {
  const pages: (number | null)[] = []
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= 2) pages.push(p)
    else if (pages[pages.length - 1] !== null) pages.push(null)
  }
  return pages
}

/** Numbered, crawlable pagination links (plain <a href>), by page number. */
export function Pagination({
  current,
  last,
  hrefs,
}: {
  current: number
  last: number
  hrefs: Readonly<Record<string, string>>
}) {
  if (last <= 1) return null
  const prev = hrefs[current - 1]
  const next = hrefs[current + 1]
  return (
    <nav className="pagination" aria-label="Pagination">
      <ul>
        {prev ? (
          <li>
            <a href={prev} rel="prev">
              Previous
            </a>
          </li>
        ) : null}
        {pageWindow(current, last).map((p, i) =>
          p === null ? (
            <li key={`gap${i}`}>
              <span aria-hidden="true">…</span>
            </li>
          ) : (
            <li key={p}>
              {p === current ? (
                <span aria-current="page">{p}</span>
              ) : (
                <a href={hrefs[p]} aria-label={`Page ${p}`}>
                  {p}
                </a>
              )}
            </li>
          ),
        )}
        {next ? (
          <li>
            <a href={next} rel="next">
              Next
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  )
}
