// The hand-written kysely types (db/types*.ts) against the migrated schema of the test database
// (PGlite, or PostgreSQL in CI): tables, columns, nullability and type family (db/check-types.ts, also
// `npm run check:db-types`). A database-lane test: it belongs in tests/db once that lane exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import {
  compareColumns,
  readDeclaredColumns,
  readMigratedColumns,
  type ColumnShape,
  type MigratedColumn,
  type Tables,
} from "../../db/check-types";

let t: TestContext;
let declared: Tables<ColumnShape>;
let migrated: Tables<MigratedColumn>;
beforeAll(async () => {
  t = await createTestContext();
  declared = readDeclaredColumns();
  migrated = await readMigratedColumns(t.ctx.db);
});
afterAll(async () => t.close());

const copy = <T>(value: T): T => structuredClone(value);

describe("db/types*.ts", () => {
  it("declare every migrated table and column, with its nullability and type family", () => {
    expect(Object.keys(migrated).length).toBeGreaterThan(30);
    expect(compareColumns(declared, migrated)).toEqual([]);
  });

  it("are read from the compiler's view of Database: select types, Generated and ColumnType unwrapped", () => {
    expect(declared.users.id).toEqual({ families: ["number"], nullable: false, optionalOnInsert: true }); // Generated<number>
    expect(declared.users.email).toEqual({ families: ["string"], nullable: false, optionalOnInsert: false });
    expect(declared.users.orcid).toEqual({ families: ["string"], nullable: true, optionalOnInsert: true }); // ColumnType<string | null, …>
    expect(declared.users.created_at).toEqual({ families: ["date"], nullable: false, optionalOnInsert: true });
    expect(declared.addresses.label).toEqual({ families: ["string"], nullable: false, optionalOnInsert: false }); // "billing" | "invoice"
    expect(declared.localizations.tax_types).toEqual({ families: ["array"], nullable: false, optionalOnInsert: false }); // Json<string[]>
    expect(migrated.users.orcid).toMatchObject({ nullable: true, hasDefault: false, dataType: "text" });
    expect(migrated.users.id).toMatchObject({ nullable: false, hasDefault: true, dataType: "integer" });
    expect(migrated).not.toHaveProperty("kysely_migration");
  });
});

describe("the comparison", () => {
  it("finds a table or a column missing on either side", () => {
    const d = copy(declared);
    const m = copy(migrated);
    delete d.sessions;
    delete m.audit_log;
    delete d.users.orcid;
    delete m.addresses.vat;
    expect(compareColumns(d, m)).toEqual([
      "addresses.vat: declared in db/types, no such column in the database",
      "audit_log: declared in db/types, no such table in the database",
      "sessions: a table in the database, missing from Database in db/types",
      "users.orcid: a column in the database, missing from db/types",
    ]);
  });

  it("finds nullability that disagrees, both ways", () => {
    const d = copy(declared);
    d.users.orcid.nullable = false;
    d.users.email.nullable = true;
    expect(compareColumns(d, migrated)).toEqual([
      "users.email: not null in the database, its type in db/types allows null",
      "users.orcid: nullable in the database, its type in db/types has no null",
    ]);
  });

  it("finds a type family the column is not read as", () => {
    const d = copy(declared);
    d.users.created_at.families = ["string"];
    d.users.active.families = ["number"];
    d.exchange_rates.rate.families = ["number"]; // numeric: a string or a number are both fine
    d.app_config.value.families = ["unknown"]; // jsonb: anything
    expect(compareColumns(d, migrated)).toEqual([
      "users.active: boolean in the database, declared as number (expected boolean)",
      "users.created_at: timestamp with time zone in the database, declared as string (expected date)",
    ]);
  });

  it("finds a column the types let an insert leave out that has no default in the database", () => {
    const d = copy(declared);
    d.users.email.optionalOnInsert = true; // as if declared Generated<string>
    d.users.orcid.optionalOnInsert = true; // nullable: fine
    const m = copy(migrated);
    m.users.created_at.hasDefault = false; // default dropped by a migration
    expect(compareColumns(d, m)).toEqual([
      "users.created_at: optional on insert in db/types (Generated?), but not null without a default in the database",
      "users.email: optional on insert in db/types (Generated?), but not null without a default in the database",
    ]);
  });
});
