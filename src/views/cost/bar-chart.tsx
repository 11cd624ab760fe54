export interface Bar {
  label: string
  value: number
  /** The bar the page is about, drawn in the brand colour. */
  highlight?: boolean
  /** A reference such as the national average, drawn in the accent colour. */
  reference?: boolean
}

const WIDTH = 360
const LABEL = 150
const BAR = 140
const ROW = 24

interface BarChartProps {
  id: string
  title: string
  description: string
  bars: readonly Bar[]
  format: (value: number) => string
  columns: readonly [string, string]
}

/** One bar: its label, the bar scaled to the largest, and its figure. */
function BarRow({
  bar: b,
  i,
  max,
  format,
}: { bar: Bar; i: number; max: number } & Pick<BarChartProps, 'format'>) {
  const y = i * ROW + 4
  const w = Math.max(2, Math.round((b.value / max) * BAR))
  return (
    <g className={b.highlight ? 'bar highlight' : b.reference ? 'bar reference' : 'bar'}>
      <text x={LABEL - 6} y={y + 15} textAnchor="end">
        {b.label}
      </text>
      <rect x={LABEL} y={y + 3} width={w} height={ROW - 8} rx="3" />
      <text x={LABEL + w + 4} y={y + 15}>
        {format(b.value)}
      </text>
    </g>
  )
}

/** The chart's figures again as a table that screen readers can walk. */
function FigureTable({ title, bars, format, columns }: Omit<BarChartProps, 'id' | 'description'>) {
  return (
    <table className="sr-only">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{columns[0]}</th>
          <th scope="col">{columns[1]}</th>
        </tr>
      </thead>
      <tbody>
        {bars.map((b) => (
          <tr key={b.label}>
            <th scope="row">{b.label}</th>
            <td>{format(b.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * A horizontal bar chart drawn on the server as SVG: no JavaScript, sharp at any size. It has
 * a title and a description for assistive technology, and the same figures follow as a table
 * that screen readers can walk, then the caption.
 */
export function BarChart(props: BarChartProps) {
  const { id, title, description, bars, format } = props
  const max = Math.max(...bars.map((b) => b.value), 1)
  const height = bars.length * ROW + 8
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        width="100%"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {bars.map((b, i) => (
          <BarRow key={b.label} bar={b} i={i} max={max} format={format} />
        ))}
      </svg>
      <FigureTable {...props} />
      {/* A figure's caption is its first or last child (HTML): last, after the hidden table. */}
      <figcaption>{title}</figcaption>
    </figure>
  )
}
