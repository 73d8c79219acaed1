// A private database for one test file: a clone of the migrated, seeded template.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { openPglite, openPostgres, type OpenedDatabase } from "../../server/db";
import { PGLITE_TEMPLATE_FILE, templateDatabaseName, withDatabase } from "./template";

export async function createTestDatabase(): Promise<OpenedDatabase> {
  if (process.env.PORTAL_TEST_TEMPLATE !== "built")
    throw new Error("No template database in this run: a test that needs a database belongs in tests/db (or tests/http).");
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dump = fs.readFileSync(PGLITE_TEMPLATE_FILE);
    return openPglite({ loadDataDir: new Blob([dump]) });
  }
  const base = new URL(url).pathname.slice(1);
  const name = `${base}_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = await openPostgres(url, 1);
  await sql.raw(`create database "${name}" template "${templateDatabaseName(url)}"`).execute(admin.db);
  await admin.close();
  const opened = await openPostgres(withDatabase(url, name), 5);
  return {
    ...opened,
    close: async () => {
      await opened.close();
      const again = await openPostgres(url, 1);
      await sql.raw(`drop database if exists "${name}" with (force)`).execute(again.db);
      await again.close();
    },
  };
}
