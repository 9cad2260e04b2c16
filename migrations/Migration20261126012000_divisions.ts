import { Migration } from '@mikro-orm/migrations';

/**
 * Divisions (docs/scoring.md#divisions) replace v0.17.6's organizations: every organization a game
 * listed, or a participation named, becomes a division with every permission, and each
 * participation points at the division of its organization.
 */
export class Migration20261126012000_divisions extends Migration {

  override name = 'Migration20261126012000_divisions';

  override up(): void | Promise<void> {
    this.addSql(`create table "divisions" ("id" serial primary key, "game_id" int not null, "name" varchar(64) not null, "invite_code" varchar(32) null, "default_permissions" int not null default 2147483647, "challenge_configs" jsonb not null);`);
    this.addSql(`alter table "divisions" add constraint "divisions_game_id_name_unique" unique ("game_id", "name");`);
    this.addSql(`alter table "divisions" add constraint "divisions_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);

    this.addSql(`alter table "participations" add "division_id" int null;`);
    this.addSql(`alter table "participations" add constraint "participations_division_id_foreign" foreign key ("division_id") references "divisions" ("id") on delete restrict;`);
    this.addSql(`create index "participations_division_id_index" on "participations" ("division_id");`);

    this.addSql(`insert into "divisions" ("game_id", "name", "challenge_configs")
      select g."id", left(u.o, 64), '[]'::jsonb from "games" g cross join lateral unnest(g."organizations") with ordinality as u(o, i)
      order by g."id", u.i
      on conflict ("game_id", "name") do nothing;`);
    this.addSql(`insert into "divisions" ("game_id", "name", "challenge_configs")
      select p."game_id", p."organization", '[]'::jsonb from "participations" p where p."organization" is not null
      order by p."id"
      on conflict ("game_id", "name") do nothing;`);
    this.addSql(`update "participations" p set "division_id" = d."id" from "divisions" d where d."game_id" = p."game_id" and d."name" = p."organization";`);

    this.addSql(`alter table "participations" drop column "organization";`);
    this.addSql(`alter table "games" drop column "organizations";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "games" add "organizations" text[] null;`);
    this.addSql(`alter table "participations" add "organization" varchar(64) null;`);
    this.addSql(`update "games" g set "organizations" = (select array_agg(d."name" order by d."id") from "divisions" d where d."game_id" = g."id") where exists (select 1 from "divisions" d where d."game_id" = g."id");`);
    this.addSql(`update "participations" p set "organization" = d."name" from "divisions" d where d."id" = p."division_id";`);
    this.addSql(`alter table "participations" drop constraint "participations_division_id_foreign";`);
    this.addSql(`alter table "participations" drop column "division_id";`);
    this.addSql(`drop table if exists "divisions" cascade;`);
  }

}
