import { Migration } from '@mikro-orm/migrations';

export class Migration20261126050000_freezeReplay extends Migration {

  override name = 'Migration20261126050000_freezeReplay';

  override up(): void | Promise<void> {
    this.addSql(`alter table "games" add "freeze_time" timestamptz null, add "unfrozen_at" timestamptz null, add "replay_public" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "games" drop column "freeze_time", drop column "unfrozen_at", drop column "replay_public";`);
  }

}
