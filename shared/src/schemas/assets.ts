/** Queries of group `assets`. */
import { z } from 'zod'
import { queryString } from './common.js'

/** `POST /api/assets?filename=`: one name for every uploaded part; absent or empty keeps each part's own. */
export const AssetUploadQuery = z.object({
  filename: queryString().transform((v) => v || null),
})
export type AssetUploadQuery = z.infer<typeof AssetUploadQuery>
