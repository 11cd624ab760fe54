import type { ReactNode } from 'react'

/**
 * A console field refused with `error`: the attributes that tie the field to its reason, and the
 * reason itself, shown next to the field (nothing of either when it was not refused).
 */
export function fieldError(
  id: string,
  error: string | undefined | null,
): { attributes: { 'aria-invalid'?: true; 'aria-describedby'?: string }; note: ReactNode } {
  if (!error) return { attributes: {}, note: null }
  return {
    attributes: { 'aria-invalid': true, 'aria-describedby': id },
    note: (
      <p className="error" id={id}>
        {error}
      </p>
    ),
  }
}
