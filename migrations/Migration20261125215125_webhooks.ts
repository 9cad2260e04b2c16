import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215125_webhooks extends Migration {

  override name = 'Migration20261125215125_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhooks" ("id" serial primary key, "game_id" int not null, "name" text not null, "kind" text not null, "url" text not null default '', "secret" text not null default '', "chat_id" text not null default '', "events" text[] not null, "enabled" boolean not null default true, "allow_private" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "webhooks_game_id_index" on "webhooks" ("game_id");`);

    this.addSql(`create table "webhook_deliveries" ("id" bigserial primary key, "delivery_id" uuid not null, "webhook_id" int not null, "game_id" int not null, "event" text not null, "payload" jsonb not null, "dedupe_key" text null, "status" text not null default 'Pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_attempt_at" timestamptz null, "response_code" int null, "last_error" text null, "created_at" timestamptz not null, "delivered_at" timestamptz null);`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_delivery_id_unique" unique ("delivery_id");`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" in ('Pending', 'Sending');`);
    this.addSql(`create index "webhook_deliveries_webhook_id_id_index" on "webhook_deliveries" ("webhook_id", "id");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_dedupe_key_unique" unique ("webhook_id", "dedupe_key");`);

    this.addSql(`alter table "games" add "ctftime_feed" boolean not null default false;`);

    this.addSql(`alter table "webhooks" add constraint "webhooks_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_kind_check" check ("kind" in ('Discord', 'Slack', 'Telegram', 'Generic'));`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('Pending', 'Sending', 'Delivered', 'Failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_webhook_id_foreign";`);

    this.addSql(`drop table if exists "webhooks" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`alter table "games" drop column "ctftime_feed";`);

  }

}
