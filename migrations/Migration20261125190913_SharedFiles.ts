import { Migration } from '@mikro-orm/migrations';

export class Migration20261125190913_SharedFiles extends Migration {

  override name = 'Migration20261125190913_SharedFiles';

  override up(): void | Promise<void> {
    this.addSql(`alter table "attachments" add "file_name" varchar(256) null;`);

    this.addSql(`alter table "files" add "content_type" varchar(128) not null default 'application/octet-stream';`);

    this.addSql(`alter table "participations" add "writeup_name" varchar(256) null;`);

    // Display names move to the owners' rows (docs/architecture.md#stored-files): each keeps the name it is shown with today.
    this.addSql(`update "attachments" a set "file_name" = f."name" from "files" f where a."type" = 'Local' and f."hash" = a."file_hash";`);
    this.addSql(`update "participations" p set "writeup_name" = f."name" from "files" f where f."hash" = p."writeup_hash";`);
    // Bytes already stored are not read again: the types of the names they were stored under, for formats no browser runs.
    this.addSql(`update "files" set "content_type" = case
      when lower("name") like '%.png' then 'image/png'
      when lower("name") like '%.gif' then 'image/gif'
      when lower("name") like '%.jpg' or lower("name") like '%.jpeg' then 'image/jpeg'
      when lower("name") like '%.webp' then 'image/webp'
      when lower("name") like '%.pdf' then 'application/pdf'
      when lower("name") like '%.zip' then 'application/zip'
      when lower("name") like '%.gz' or lower("name") like '%.tgz' then 'application/gzip'
      when lower("name") like '%.txt' then 'text/plain; charset=utf-8'
      else "content_type" end;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "attachments" drop column "file_name";`);

    this.addSql(`alter table "files" drop column "content_type";`);

    this.addSql(`alter table "participations" drop column "writeup_name";`);
  }

}
