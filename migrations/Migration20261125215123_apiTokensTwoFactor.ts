import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215123_apiTokensTwoFactor extends Migration {

  override name = 'Migration20261125215123_apiTokensTwoFactor';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_tokens" ("id" uuid not null, "user_id" uuid not null, "kind" varchar(16) not null, "name" varchar(64) not null, "secret_hash" varchar(64) null, "scopes" text[] not null default '{}', "created_at" timestamptz not null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "api_tokens_user_id_index" on "api_tokens" ("user_id");`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_secret_hash_unique" unique ("secret_hash");`);

    this.addSql(`alter table "users" add "two_factor_secret" varchar(64) null, add "two_factor_pending_secret" varchar(64) null, add "two_factor_last_step" int not null default 0, add "two_factor_recovery_codes" text[] not null default '{}', add "two_factor_device_stamp" varchar(32) not null default '', add "two_factor_failures" int not null default 0, add "two_factor_locked_until" timestamptz null;`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_tokens" cascade;`);

    this.addSql(`alter table "users" drop column "two_factor_secret", drop column "two_factor_pending_secret", drop column "two_factor_last_step", drop column "two_factor_recovery_codes", drop column "two_factor_device_stamp", drop column "two_factor_failures", drop column "two_factor_locked_until";`);
  }

}
