/**
 * Build information (docs/compatibility.md#defaults-and-build-information): sha (40 hex characters), tag, commit timestamp (20 characters,
 * `YYYY-MM-DDTHH:mm:ssZ`) and build time. The build counts as official only when all four are
 * well-formed; otherwise the UI says "unofficial" and shows the unknown parts as unknown.
 */
export interface BuildInfo {
  sha: string
  tag: string
  timestamp: string
  buildTime: string
}

export const BUILD: BuildInfo = __FLAGWAVE_BUILD__

export function isOfficialBuild(info: BuildInfo = BUILD): boolean {
  return (
    /^[0-9a-f]{40}$/i.test(info.sha) &&
    info.tag.length > 0 &&
    info.timestamp.length === 20 &&
    info.buildTime.length > 0 &&
    !Number.isNaN(Date.parse(info.buildTime))
  )
}

/** `v2.0.1#0123456` for an official build, otherwise null. */
export function buildLabel(info: BuildInfo = BUILD): string | null {
  return isOfficialBuild(info) ? `${info.tag}#${info.sha.slice(0, 7)}` : null
}
