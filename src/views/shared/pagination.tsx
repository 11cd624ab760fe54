/** Page numbers to show: first, last, and two either side of the current page. */
export function pageWindow(current: number, last: number): (number | null)[] {
  const pages: (number | null)[] = []
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= 2) pages.push(p)
    else if (pages[pages.length - 1] !== null) pages.push(null)
  }
  return pages
}

/** Numbered, crawlable pagination links (plain <a href>). */
export function Pagination({
  current,
  last,
  href,
}: {
  current: number
  last: number
  href: (page: number) => string
}) {
  if (last <= 1) return null
  return (
    <nav className="pagination" aria-label="Pagination">
      <ul>
        {current > 1 ? (
          <li>
            <a href={href(current - 1)} rel="prev">
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
                <a href={href(p)} aria-label={`Page ${p}`}>
                  {p}
                </a>
              )}
            </li>
          ),
        )}
        {current < last ? (
          <li>
            <a href={href(current + 1)} rel="next">
              Next
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  )
}
