import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215148_sso extends Migration {

  override name = 'Migration20261125215148_sso';

  override up(): void | Promise<void> {
    this.addSql(`create table "sso_providers" ("id" varchar(32) not null, "name" varchar(64) not null, "issuer" varchar(512) not null, "client_id" varchar(256) not null, "client_secret" text not null default '', "scopes" varchar(256) not null, "role_claim" varchar(64) not null default '', "admin_values" varchar(512) not null default '', "monitor_values" varchar(512) not null default '', "allowed_domains" varchar(512) not null default '', "enabled" boolean not null default true, "created_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "sso_logins" ("id" varchar(64) not null, "provider" varchar(32) not null, "code_verifier" varchar(128) not null, "nonce" varchar(128) not null, "return_to" varchar(512) not null default '/', "link_user_id" uuid null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "sso_logins_expires_at_index" on "sso_logins" ("expires_at");`);

    this.addSql(`create table "user_identities" ("provider_id" varchar(32) not null, "subject" varchar(255) not null, "user_id" uuid not null, "email" varchar(256) not null default '', "created_at" timestamptz not null, "last_used" timestamptz null, primary key ("provider_id", "subject"));`);
    this.addSql(`create index "user_identities_user_id_index" on "user_identities" ("user_id");`);
    this.addSql(`alter table "user_identities" add constraint "user_identities_user_id_provider_id_unique" unique ("user_id", "provider_id");`);

    this.addSql(`alter table "sso_logins" add constraint "sso_logins_link_user_id_foreign" foreign key ("link_user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "user_identities" add constraint "user_identities_provider_id_foreign" foreign key ("provider_id") references "sso_providers" ("id") on delete cascade;`);
    this.addSql(`alter table "user_identities" add constraint "user_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_identities" drop constraint "user_identities_provider_id_foreign";`);

    this.addSql(`drop table if exists "sso_providers" cascade;`);
    this.addSql(`drop table if exists "sso_logins" cascade;`);
    this.addSql(`drop table if exists "user_identities" cascade;`);

  }

}
