import { Migration } from '@mikro-orm/migrations';

export class Migration20261122104539_initial extends Migration {

  override name = 'Migration20261122104539_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "attachments" ("id" serial primary key, "type" text not null, "file_hash" varchar(64) null, "remote_url" text null);`);

    this.addSql(`create table "configs" ("key" varchar(128) not null, "value" text null, primary key ("key"));`);

    this.addSql(`create table "containers" ("id" uuid not null, "container_id" varchar(128) not null, "image" varchar(256) not null, "status" text not null default 'Pending', "started_at" timestamptz not null, "expect_stop_at" timestamptz not null, "ip" varchar(128) not null, "port" int not null, "public_ip" varchar(128) null, "public_port" int null, "is_proxy" boolean not null default false, "test_challenge_id" int null, "flag" varchar(128) null, primary key ("id"));`);
    this.addSql(`create index "containers_expect_stop_at_index" on "containers" ("expect_stop_at");`);
    this.addSql(`create index "containers_test_challenge_id_index" on "containers" ("test_challenge_id");`);

    this.addSql(`create table "games" ("id" serial primary key, "title" varchar(128) not null, "summary" text not null default '', "content" text not null default '', "hidden" boolean not null default false, "practice_mode" boolean not null default true, "accept_without_review" boolean not null default false, "invite_code" varchar(32) null, "organizations" text[] null, "team_member_count_limit" int not null default 0, "container_count_limit" int not null default 3, "poster_hash" varchar(64) null, "public_key" varchar(64) not null, "private_key" varchar(128) not null, "start" timestamptz not null, "end" timestamptz not null, "wpddl" timestamptz not null, "wp_note" text not null default '', "blood_bonus" bigint not null default '52459530', "created_at" timestamptz not null);`);
    this.addSql(`create index "games_start_index" on "games" ("start");`);

    this.addSql(`create table "challenges" ("id" serial primary key, "game_id" int not null, "title" varchar(128) not null, "content" text not null default '', "tag" text not null default 'Misc', "type" text not null default 'StaticAttachment', "hints" text[] not null default '{}', "flag_template" varchar(128) null, "is_enabled" boolean not null default false, "accepted_count" int not null default 0, "file_name" varchar(256) not null default 'attachment', "attachment_id" int null, "container_image" varchar(256) not null default '', "memory_limit" int not null default 64, "cpu_count" int not null default 1, "storage_limit" int not null default 256, "container_expose_port" int not null default 80, "enable_traffic_capture" boolean not null default false, "original_score" int not null default 500, "min_score_rate" double precision not null default 0.25, "difficulty" double precision not null default 5);`);
    this.addSql(`create index "challenges_game_id_index" on "challenges" ("game_id");`);

    this.addSql(`create table "flags" ("id" serial primary key, "challenge_id" int not null, "flag" varchar(128) not null, "attachment_id" int null, "is_occupied" boolean not null default false);`);
    this.addSql(`create index "flags_challenge_id_index" on "flags" ("challenge_id");`);

    this.addSql(`create table "notices" ("id" serial primary key, "game_id" int not null, "type" text not null default 'Normal', "content" text not null, "publish_time" timestamptz not null);`);
    this.addSql(`create index "notices_game_id_index" on "notices" ("game_id");`);

    this.addSql(`create table "files" ("hash" varchar(64) not null, "name" varchar(256) not null, "file_size" bigint not null, "upload_time" timestamptz not null, "reference_count" int not null default 1, primary key ("hash"));`);

    this.addSql(`create table "logs" ("id" bigserial primary key, "time" timestamptz not null, "level" text not null, "user_name" varchar(64) null, "ip" varchar(64) null, "message" text not null, "status" text null);`);
    this.addSql(`create index "logs_time_index" on "logs" ("time");`);

    this.addSql(`create table "users" ("id" uuid not null, "user_name" varchar(64) not null, "normalized_user_name" varchar(64) not null, "email" varchar(256) not null, "normalized_email" varchar(256) not null, "email_confirmed" boolean not null default false, "password_hash" text not null, "security_stamp" varchar(64) not null, "role" text not null default 'User', "bio" varchar(64) not null default '', "phone" varchar(64) null, "real_name" varchar(16) not null default '', "std_number" varchar(32) not null default '', "avatar_hash" varchar(64) null, "register_time" timestamptz not null default '1970-01-01T00:00:00Z', "last_visited" timestamptz not null default '1970-01-01T00:00:00Z', "last_sign_in" timestamptz not null default '1970-01-01T00:00:00Z', "ip" varchar(64) not null default '0.0.0.0', "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_normalized_user_name_unique" unique ("normalized_user_name");`);
    this.addSql(`alter table "users" add constraint "users_normalized_email_unique" unique ("normalized_email");`);

    this.addSql(`create table "teams" ("id" serial primary key, "name" varchar(32) not null, "bio" varchar(64) null, "avatar_hash" varchar(64) null, "locked" boolean not null default false, "invite_token" varchar(32) not null, "captain_id" uuid not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "teams_captain_id_index" on "teams" ("captain_id");`);

    this.addSql(`create table "team_members" ("team_id" int not null, "user_id" uuid not null, primary key ("team_id", "user_id"));`);

    this.addSql(`create table "participations" ("id" serial primary key, "game_id" int not null, "team_id" int not null, "status" text not null default 'Pending', "organization" varchar(64) null, "token" varchar(128) not null, "writeup_hash" varchar(64) null, "writeup_time" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`create index "participations_team_id_index" on "participations" ("team_id");`);
    this.addSql(`alter table "participations" add constraint "participations_game_id_team_id_unique" unique ("game_id", "team_id");`);

    this.addSql(`create table "instances" ("id" serial primary key, "participation_id" int not null, "challenge_id" int not null, "flag_id" int null, "dynamic_flag" varchar(128) null, "is_loaded" boolean not null default false, "last_container_operation" timestamptz null, "container_id" uuid null);`);
    this.addSql(`create index "instances_challenge_id_index" on "instances" ("challenge_id");`);
    this.addSql(`create index "instances_dynamic_flag_index" on "instances" ("dynamic_flag");`);
    this.addSql(`alter table "instances" add constraint "instances_container_id_unique" unique ("container_id");`);
    this.addSql(`alter table "instances" add constraint "instances_participation_id_challenge_id_unique" unique ("participation_id", "challenge_id");`);

    this.addSql(`create table "submissions" ("id" serial primary key, "game_id" int not null, "challenge_id" int not null, "participation_id" int not null, "user_id" uuid null, "answer" varchar(128) not null, "status" text not null default 'FlagSubmitted', "submit_time" timestamptz not null, "settled_at" timestamptz null);`);
    this.addSql(`create index "submissions_game_id_submit_time_index" on "submissions" ("game_id", "submit_time");`);
    this.addSql(`create index "submissions_challenge_id_participation_id_status_index" on "submissions" ("challenge_id", "participation_id", "status");`);
    this.addSql(`create index "submissions_pending_idx" on "submissions" ("id") where "status" = 'FlagSubmitted';`);

    this.addSql(`create table "cheat_infos" ("id" serial primary key, "game_id" int not null, "submission_id" int not null, "submit_team_id" int not null, "source_team_id" int not null);`);
    this.addSql(`create index "cheat_infos_game_id_index" on "cheat_infos" ("game_id");`);

    this.addSql(`create table "sessions" ("id" varchar(64) not null, "user_id" uuid not null, "security_stamp" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "ip" varchar(64) not null default '', "user_agent" varchar(512) not null default '', primary key ("id"));`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create index "sessions_expires_at_index" on "sessions" ("expires_at");`);

    this.addSql(`create table "registrations" ("id" serial primary key, "user_id" uuid not null, "game_id" int not null, "participation_id" int not null);`);
    this.addSql(`create index "registrations_participation_id_index" on "registrations" ("participation_id");`);
    this.addSql(`alter table "registrations" add constraint "registrations_user_id_game_id_unique" unique ("user_id", "game_id");`);

    this.addSql(`create table "posts" ("id" varchar(8) not null, "title" varchar(64) not null, "summary" text not null default '', "content" text not null default '', "is_pinned" boolean not null default false, "tags" text[] not null default '{}', "author_id" uuid null, "update_time" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "posts_update_time_index" on "posts" ("update_time");`);

    this.addSql(`create table "events" ("id" serial primary key, "game_id" int not null, "type" text not null, "content" text not null, "publish_time" timestamptz not null, "user_id" uuid null, "team_id" int null);`);
    this.addSql(`create index "events_game_id_publish_time_index" on "events" ("game_id", "publish_time");`);

    this.addSql(`alter table "attachments" add constraint "attachments_type_check" check ("type" in ('None', 'Local', 'Remote'));`);

    this.addSql(`alter table "containers" add constraint "containers_status_check" check ("status" in ('Pending', 'Running', 'Destroyed'));`);

    this.addSql(`alter table "challenges" add constraint "challenges_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "challenges" add constraint "challenges_attachment_id_foreign" foreign key ("attachment_id") references "attachments" ("id") on delete set null;`);
    this.addSql(`alter table "challenges" add constraint "challenges_tag_check" check ("tag" in ('Misc', 'Crypto', 'Pwn', 'Web', 'Reverse', 'Blockchain', 'Forensics', 'Hardware', 'Mobile', 'PPC'));`);
    this.addSql(`alter table "challenges" add constraint "challenges_type_check" check ("type" in ('StaticAttachment', 'StaticContainer', 'DynamicAttachment', 'DynamicContainer'));`);

    this.addSql(`alter table "flags" add constraint "flags_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on delete cascade;`);
    this.addSql(`alter table "flags" add constraint "flags_attachment_id_foreign" foreign key ("attachment_id") references "attachments" ("id") on delete set null;`);

    this.addSql(`alter table "notices" add constraint "notices_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "notices" add constraint "notices_type_check" check ("type" in ('Normal', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'NewHint', 'NewChallenge'));`);

    this.addSql(`alter table "logs" add constraint "logs_level_check" check ("level" in ('Information', 'Warning', 'Error', 'Fatal'));`);
    this.addSql(`alter table "logs" add constraint "logs_status_check" check ("status" in ('Pending', 'Success', 'Failed', 'Duplicate', 'Denied', 'NotFound', 'Exit'));`);

    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('Banned', 'User', 'Monitor', 'Admin'));`);

    this.addSql(`alter table "teams" add constraint "teams_captain_id_foreign" foreign key ("captain_id") references "users" ("id") on delete restrict;`);

    this.addSql(`alter table "team_members" add constraint "team_members_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "team_members" add constraint "team_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "participations" add constraint "participations_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "participations" add constraint "participations_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "participations" add constraint "participations_writeup_hash_foreign" foreign key ("writeup_hash") references "files" ("hash") on delete set null;`);
    this.addSql(`alter table "participations" add constraint "participations_status_check" check ("status" in ('Pending', 'Accepted', 'Rejected', 'Suspended', 'Unsubmitted'));`);

    this.addSql(`alter table "instances" add constraint "instances_participation_id_foreign" foreign key ("participation_id") references "participations" ("id") on delete cascade;`);
    this.addSql(`alter table "instances" add constraint "instances_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on delete cascade;`);
    this.addSql(`alter table "instances" add constraint "instances_flag_id_foreign" foreign key ("flag_id") references "flags" ("id") on delete set null;`);
    this.addSql(`alter table "instances" add constraint "instances_container_id_foreign" foreign key ("container_id") references "containers" ("id") on delete set null;`);

    this.addSql(`alter table "submissions" add constraint "submissions_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "submissions" add constraint "submissions_challenge_id_foreign" foreign key ("challenge_id") references "challenges" ("id") on delete cascade;`);
    this.addSql(`alter table "submissions" add constraint "submissions_participation_id_foreign" foreign key ("participation_id") references "participations" ("id") on delete cascade;`);
    this.addSql(`alter table "submissions" add constraint "submissions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "submissions" add constraint "submissions_status_check" check ("status" in ('FlagSubmitted', 'Accepted', 'WrongAnswer', 'NotFound', 'CheatDetected'));`);

    this.addSql(`alter table "cheat_infos" add constraint "cheat_infos_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "cheat_infos" add constraint "cheat_infos_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    this.addSql(`alter table "cheat_infos" add constraint "cheat_infos_submit_team_id_foreign" foreign key ("submit_team_id") references "participations" ("id") on delete cascade;`);
    this.addSql(`alter table "cheat_infos" add constraint "cheat_infos_source_team_id_foreign" foreign key ("source_team_id") references "participations" ("id") on delete cascade;`);

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "registrations" add constraint "registrations_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "registrations" add constraint "registrations_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "registrations" add constraint "registrations_participation_id_foreign" foreign key ("participation_id") references "participations" ("id") on delete cascade;`);

    this.addSql(`alter table "posts" add constraint "posts_author_id_foreign" foreign key ("author_id") references "users" ("id") on delete set null;`);

    this.addSql(`alter table "events" add constraint "events_game_id_foreign" foreign key ("game_id") references "games" ("id") on delete cascade;`);
    this.addSql(`alter table "events" add constraint "events_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "events" add constraint "events_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete set null;`);
    this.addSql(`alter table "events" add constraint "events_type_check" check ("type" in ('Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "challenges" drop constraint "challenges_attachment_id_foreign";`);
    this.addSql(`alter table "flags" drop constraint "flags_attachment_id_foreign";`);
    this.addSql(`alter table "instances" drop constraint "instances_container_id_foreign";`);
    this.addSql(`alter table "challenges" drop constraint "challenges_game_id_foreign";`);
    this.addSql(`alter table "notices" drop constraint "notices_game_id_foreign";`);
    this.addSql(`alter table "participations" drop constraint "participations_game_id_foreign";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_game_id_foreign";`);
    this.addSql(`alter table "cheat_infos" drop constraint "cheat_infos_game_id_foreign";`);
    this.addSql(`alter table "registrations" drop constraint "registrations_game_id_foreign";`);
    this.addSql(`alter table "events" drop constraint "events_game_id_foreign";`);
    this.addSql(`alter table "flags" drop constraint "flags_challenge_id_foreign";`);
    this.addSql(`alter table "instances" drop constraint "instances_challenge_id_foreign";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_challenge_id_foreign";`);
    this.addSql(`alter table "instances" drop constraint "instances_flag_id_foreign";`);
    this.addSql(`alter table "participations" drop constraint "participations_writeup_hash_foreign";`);
    this.addSql(`alter table "teams" drop constraint "teams_captain_id_foreign";`);
    this.addSql(`alter table "team_members" drop constraint "team_members_user_id_foreign";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_user_id_foreign";`);
    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);
    this.addSql(`alter table "registrations" drop constraint "registrations_user_id_foreign";`);
    this.addSql(`alter table "posts" drop constraint "posts_author_id_foreign";`);
    this.addSql(`alter table "events" drop constraint "events_user_id_foreign";`);
    this.addSql(`alter table "team_members" drop constraint "team_members_team_id_foreign";`);
    this.addSql(`alter table "participations" drop constraint "participations_team_id_foreign";`);
    this.addSql(`alter table "events" drop constraint "events_team_id_foreign";`);
    this.addSql(`alter table "instances" drop constraint "instances_participation_id_foreign";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_participation_id_foreign";`);
    this.addSql(`alter table "cheat_infos" drop constraint "cheat_infos_submit_team_id_foreign";`);
    this.addSql(`alter table "cheat_infos" drop constraint "cheat_infos_source_team_id_foreign";`);
    this.addSql(`alter table "registrations" drop constraint "registrations_participation_id_foreign";`);
    this.addSql(`alter table "cheat_infos" drop constraint "cheat_infos_submission_id_foreign";`);

    this.addSql(`drop table if exists "attachments" cascade;`);
    this.addSql(`drop table if exists "configs" cascade;`);
    this.addSql(`drop table if exists "containers" cascade;`);
    this.addSql(`drop table if exists "games" cascade;`);
    this.addSql(`drop table if exists "challenges" cascade;`);
    this.addSql(`drop table if exists "flags" cascade;`);
    this.addSql(`drop table if exists "notices" cascade;`);
    this.addSql(`drop table if exists "files" cascade;`);
    this.addSql(`drop table if exists "logs" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "teams" cascade;`);
    this.addSql(`drop table if exists "team_members" cascade;`);
    this.addSql(`drop table if exists "participations" cascade;`);
    this.addSql(`drop table if exists "instances" cascade;`);
    this.addSql(`drop table if exists "submissions" cascade;`);
    this.addSql(`drop table if exists "cheat_infos" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "registrations" cascade;`);
    this.addSql(`drop table if exists "posts" cascade;`);
    this.addSql(`drop table if exists "events" cascade;`);
  }

}
