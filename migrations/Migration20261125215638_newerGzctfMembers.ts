import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215638_newerGzctfMembers extends Migration {

  override name = 'Migration20261125215638_newerGzctfMembers';

  override up(): void | Promise<void> {
    this.addSql(`alter table "games" add "writeup_required" boolean not null default false;`);

    this.addSql(`alter table "challenges" drop constraint "challenges_tag_check";`);
    this.addSql(`alter table "challenges" add constraint "challenges_tag_check" check ("tag" in ('Misc', 'Crypto', 'Pwn', 'Web', 'Reverse', 'Blockchain', 'Forensics', 'Hardware', 'Mobile', 'PPC', 'AI', 'Pentest', 'OSINT'));`);

    this.addSql(`alter table "logs" drop constraint "logs_status_check";`);
    this.addSql(`alter table "logs" add constraint "logs_status_check" check ("status" in ('Pending', 'Success', 'Failed', 'Duplicate', 'Denied', 'NotFound', 'Exit', 'Unhealthy', 'Degraded'));`);

  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "challenges" drop constraint "challenges_tag_check";`);
    this.addSql(`alter table "challenges" add constraint "challenges_tag_check" check ("tag" in ('Misc', 'Crypto', 'Pwn', 'Web', 'Reverse', 'Blockchain', 'Forensics', 'Hardware', 'Mobile', 'PPC'));`);

    this.addSql(`alter table "games" drop column "writeup_required";`);

    this.addSql(`alter table "logs" drop constraint "logs_status_check";`);
    this.addSql(`alter table "logs" add constraint "logs_status_check" check ("status" in ('Pending', 'Success', 'Failed', 'Duplicate', 'Denied', 'NotFound', 'Exit'));`);

  }

}
