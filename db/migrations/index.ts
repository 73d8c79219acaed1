// Migrations are listed statically so they are bundled with the app and run
// the same way from the server, the tests and the scripts.
import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_mail_and_reset";

const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_mail_and_reset": m0002,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
