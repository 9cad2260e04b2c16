import { Migration } from '@mikro-orm/migrations';

export class Migration20261126053000_challengeRules extends Migration {

  override name = 'Migration20261126053000_challengeRules';

  override up(): void | Promise<void> {
    this.addSql(`alter table "challenges" add "release_time_utc" timestamptz null, add "deadline_utc" timestamptz null, add "submission_limit" int not null default 0;`);
    // The release scheduler's one query (docs/challenge-rules.md#timed-release): the pending openings.
    this.addSql(`create index "challenges_pending_release_idx" on "challenges" ("release_time_utc") where "release_time_utc" is not null and not "is_enabled";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "challenges_pending_release_idx";`);
    this.addSql(`alter table "challenges" drop column "release_time_utc", drop column "deadline_utc", drop column "submission_limit";`);
  }

}
