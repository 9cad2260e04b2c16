const BINARY_UNITS = { binary: ['KiB', 'MiB', 'GiB', 'TiB'], short: ['KB', 'MB', 'GB', 'TB'] } as const

/**
 * A byte count with three significant digits at most (`512 B`, `1.50 KiB`, `12.3 MiB`, `250 GiB`),
 * always in powers of 1024; `short` writes the units as KB/MB/GB/TB (the traffic screens).
 */
export function formatBytes(bytes: number, names: keyof typeof BINARY_UNITS = 'binary'): string {
  if (bytes < 1024) return `${bytes} B`
  const units = BINARY_UNITS[names]
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`
}
