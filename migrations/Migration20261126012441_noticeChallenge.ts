import { Migration } from '@mikro-orm/migrations';

export class Migration20261126012441_noticeChallenge extends Migration {

  override name = 'Migration20261126012441_noticeChallenge';

  override up(): void | Promise<void> {
    this.addSql(`alter table "notices" add "challenge_id" int null;`);
    this.addSql(`alter table "notices" add constraint "notices_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on delete set null;`);
    this.addSql(`create index "notices_challenge_id_index" on "notices" ("challenge_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "notices" drop constraint "notices_challenge_id_foreign";`);

    this.addSql(`drop index "notices_challenge_id_index";`);
    this.addSql(`alter table "notices" drop column "challenge_id";`);
  }

}
