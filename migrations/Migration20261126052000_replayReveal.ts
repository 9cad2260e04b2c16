import { Migration } from '@mikro-orm/migrations';

export class Migration20261126052000_replayReveal extends Migration {

  override name = 'Migration20261126052000_replayReveal';

  override up(): void | Promise<void> {
    // The record of score-changing edits a replay honours (docs/scoring.md#replay): each row holds the values in force until `edited_at`.
    this.addSql(`create table "score_edits" ("id" serial primary key, "game_id" int not null, "challenge_id" int null, "edited_at" timestamptz not null, "original_score" int null, "min_score_rate" double precision null, "difficulty" double precision null, "is_enabled" boolean null, "blood_bonus" bigint null);`);
    this.addSql(`create index "score_edits_game_id_edited_at_index" on "score_edits" ("game_id", "edited_at");`);
    this.addSql(`alter table "score_edits" add constraint "score_edits_game_id_foreign" foreign key ("game_id") references "games" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "score_edits" add constraint "score_edits_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on update cascade on delete cascade;`);
    // The staged reveal of a game (docs/scoring.md#staged-reveal): one row per game while it is open.
    this.addSql(`create table "reveals" ("game_id" int not null primary key, "step" int not null default 0, "auto_ms" int null, "freeze_time" timestamptz not null, "opened_at" timestamptz not null, "updated_at" timestamptz not null, "finished_at" timestamptz null);`);
    this.addSql(`alter table "reveals" add constraint "reveals_game_id_foreign" foreign key ("game_id") references "games" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "reveals" cascade;`);
    this.addSql(`drop table if exists "score_edits" cascade;`);
  }

}
