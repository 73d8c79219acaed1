// Builds the migrated, seeded template database that every test file clones.
import fs from "node:fs";
import path from "node:path";
import { openPglite, openPostgres, migrateToLatest } from "../../server/db";
import { seedReference, seedDemoAccounts } from "../../db/seed";

export const TMP_DIR = path.resolve(".tmp");
export const PGLITE_TEMPLATE_FILE = path.join(TMP_DIR, "pglite-template.tgz");

export function templateDatabaseName(databaseUrl: string): string {
  return `${new URL(databaseUrl).pathname.slice(1)}_tpl`;
}

export function withDatabase(databaseUrl: string, name: string): string {
  const u = new URL(databaseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function buildTemplate(databaseUrl: string | undefined): Promise<void> {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  if (databaseUrl) {
    const admin = await openPostgres(databaseUrl, 1);
    const tpl = templateDatabaseName(databaseUrl);
    const { sql } = await import("kysely");
    // Leftover clones of an earlier run are dropped too.
    const stale = await sql<{
      datname: string;
    }>`select datname from pg_database where datname like ${`${new URL(databaseUrl).pathname.slice(1)}_t_%`}`.execute(admin.db);
    for (const row of stale.rows) await sql.raw(`drop database if exists "${row.datname}" with (force)`).execute(admin.db);
    await sql.raw(`drop database if exists "${tpl}" with (force)`).execute(admin.db);
    await sql.raw(`create database "${tpl}"`).execute(admin.db);
    await admin.close();
    const template = await openPostgres(withDatabase(databaseUrl, tpl), 1);
    await migrateToLatest(template.db);
    await seedReference(template.db);
    await seedDemoAccounts(template.db);
    await template.close();
    return;
  }
  const template = await openPglite({});
  await migrateToLatest(template.db);
  await seedReference(template.db);
  await seedDemoAccounts(template.db);
  // Dump the data directory so each test file starts from a copy in a fraction of the init time.
  const blob = await template.pglite!.dumpDataDir("gzip");
  fs.writeFileSync(PGLITE_TEMPLATE_FILE, Buffer.from(await blob.arrayBuffer()));
  await template.close();
}

/** Drops and recreates `<database>_<suffix>` next to DATABASE_URL's database; returns its URL. */
export async function freshDatabase(databaseUrl: string, suffix: string): Promise<string> {
  const { sql } = await import("kysely");
  const name = `${new URL(databaseUrl).pathname.slice(1)}_${suffix}`;
  const admin = await openPostgres(databaseUrl, 1);
  await sql.raw(`drop database if exists "${name}" with (force)`).execute(admin.db);
  await sql.raw(`create database "${name}"`).execute(admin.db);
  await admin.close();
  return withDatabase(databaseUrl, name);
}
