import { defineEntity, p } from '@mikro-orm/core'
import { FileType } from '@flagwave/shared/enums'


/** A challenge-wide or per-flag attachment: a stored file or a remote URL. */
export const AttachmentSchema = defineEntity({
  name: 'Attachment',
  tableName: 'attachments',
  properties: {
    id: p.integer().primary(),
    type: p.enum(FileType),
    /** Kept as a plain hash (not a foreign key): an unknown hash is allowed and yields a null url (docs/compatibility.md#group-edit). */
    fileHash: p.string().length(64).nullable(),
    remoteUrl: p.text().nullable(),
    /** The download name of a `Local` attachment, taken from the stored file when attached (docs/architecture.md#stored-files). */
    fileName: p.string().length(256).nullable(),
  },
})
export class Attachment extends AttachmentSchema.class {}
AttachmentSchema.setClass(Attachment)


