import type { Labelled } from '../catalog/enums'

/** One control of a listing's filter form (src/views/listing/filter-panel.tsx), with its value. */
export type FilterField =
  | {
      kind: 'select'
      name: string
      label: string
      value: string
      options: readonly { value: string; label: string }[]
    }
  | { kind: 'checks'; name: string; legend: string; items: readonly Labelled[]; mask: number }
  | { kind: 'date'; name: string; label: string; value: string }
