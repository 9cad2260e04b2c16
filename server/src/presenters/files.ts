/** Stored files → contract shapes (docs/compatibility.md#administration-shapes). */
import type { LocalFile as LocalFileModel } from '@flagwave/shared/schemas/admin'
import type { LocalFile } from '../entities/LocalFile.js'

export function presentLocalFile(file: Pick<LocalFile, 'hash' | 'name'>): LocalFileModel {
  return { hash: file.hash, name: file.name }
}
