import { Migration } from '@mikro-orm/migrations';

/**
 * The version of a game's frozen board (docs/scoring.md#freeze), so a node building it again keeps
 * its version without Redis: one row per game, for the freeze time it was built at, with a digest
 * of the board it showed (server/src/domain/scoreboard/frozenVersion.ts).
 */
export class Migration20261126070000_frozenBoardVersion extends Migration {

  override name = 'Migration20261126070000_frozenBoardVersion';

  override up(): void | Promise<void> {
    this.addSql(`create table "frozen_boards" ("game_id" int primary key references "games" ("id") on delete cascade, "freeze_at" timestamptz not null, "version" bigint not null, "digest" text not null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "frozen_boards";`);
  }

}
