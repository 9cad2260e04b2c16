/**
 * A division's permission flags in SQL (docs/scoring.md#divisions), for set-based statements that
 * read them beside other rows: the same rule as `DivisionPermissions.of` in shared/src/divisions.ts.
 */
import { GamePermission } from '@flagwave/shared/enums'

/**
 * The flags of the division `d` (joined, possibly null) for the challenge `challengeId` (an SQL
 * expression): its override, else its defaults, else every permission (a team without a division).
 */
export const divisionPermissionsSql = (challengeId: string): string => `coalesce(
           (select (dc->>'permissions')::int from jsonb_array_elements(d.challenge_configs) dc where (dc->>'challengeId')::int = ${challengeId} limit 1),
           d.default_permissions, ${GamePermission.All})`
