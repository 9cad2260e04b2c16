/**
 * Where a stored file is downloaded from: `/assets/{hash}/{name}`, the name only a label. Plain
 * string building, so presenters can make URLs without reaching into the domain.
 */
export const assetUrl = (hash: string, name: string): string => `/assets/${hash}/${name}`
export const avatarUrl = (hash: string | null | undefined): string | null => (hash ? `/assets/${hash}/avatar` : null)
export const posterUrl = (hash: string | null | undefined): string | null => (hash ? `/assets/${hash}/poster` : null)
