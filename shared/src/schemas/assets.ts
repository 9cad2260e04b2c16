/** Queries of group `assets`. */
import { z } from 'zod'

/** `POST /api/assets?filename=`: one name for every uploaded part; absent or empty keeps each part's own. */
export const AssetUploadQuery = z.object({
  filename: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (Array.isArray(v) ? v[0] : v) || null),
})
export type AssetUploadQuery = z.infer<typeof AssetUploadQuery>
