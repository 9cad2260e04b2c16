import { Migration } from '@mikro-orm/migrations';

export class Migration20261125192126_submissionIp extends Migration {

  override name = 'Migration20261125192126_submissionIp';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add "ip" varchar(64) not null default '';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "submissions" drop column "ip";`);
  }

}
