import { Migration } from '@mikro-orm/migrations';

/**
 * Costed hints and prerequisites (docs/challenge-rules.md): a challenge's costed hints (jsonb, ids
 * unique within the challenge), the challenges it requires and whether a locked challenge shows its
 * title; `hint_unlocks` is append-only — one row per team and hint, with the points it cost at that
 * moment and when, so a board at time t folds in exactly the unlocks before t.
 */
export class Migration20261126054000_challengeRules extends Migration {

  override name = 'Migration20261126054000_challengeRules';

  override up(): void | Promise<void> {
    this.addSql(`alter table "challenges" add "costed_hints" jsonb not null default '[]', add "prerequisites" jsonb not null default '[]', add "locked_title_visible" boolean not null default true;`);
    this.addSql(`create table "hint_unlocks" ("id" serial primary key, "game_id" int not null, "challenge_id" int not null, "participation_id" int not null, "hint_id" int not null, "user_id" uuid null, "cost" int not null, "unlocked_at" timestamptz not null);`);
    this.addSql(`alter table "hint_unlocks" add constraint "hint_unlocks_participation_id_challenge_id_hint_id_unique" unique ("participation_id", "challenge_id", "hint_id");`);
    this.addSql(`create index "hint_unlocks_game_id_index" on "hint_unlocks" ("game_id");`);
    this.addSql(`alter table "hint_unlocks" add constraint "hint_unlocks_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "hint_unlocks" add constraint "hint_unlocks_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on delete cascade;`);
    this.addSql(`alter table "hint_unlocks" add constraint "hint_unlocks_participation_id_foreign" foreign key ("participation_id") references "participations" ("id") on delete cascade;`);
    this.addSql(`alter table "hint_unlocks" add constraint "hint_unlocks_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "hint_unlocks" cascade;`);
    this.addSql(`alter table "challenges" drop column "costed_hints", drop column "prerequisites", drop column "locked_title_visible";`);
  }

}
