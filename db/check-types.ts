// The kysely table types (db/types*.ts, the `Database` interface) are written by hand; this compares them
// with the schema the migrations actually build, so the two cannot drift apart unnoticed. Run by
// `npm run check:db-types` (a fresh in-memory database) and by tests/unit/db-types.test.ts (the test
// database: PGlite, or PostgreSQL in CI).
//
// The declared side is read with the TypeScript compiler: the select type of every column
// (`Selectable<Database[table]>`), reduced to a family (string, number, boolean, date, array, object,
// unknown) and whether it includes null. The migrated side comes from information_schema.columns.
// Checked: every table and column exists on both sides, nullability agrees, the declared family is one
// the column's SQL type is read as by `pg` and PGlite, and a column the types let an insert leave out
// (Generated, optional insert type) has a default or may be null.
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { sql, type QueryExecutorProvider } from "kysely";

export type Family = "string" | "number" | "bigint" | "boolean" | "date" | "array" | "object" | "unknown";

export interface ColumnShape {
  /** Families of the column's select type (a union may have several, e.g. a JSON value). */
  families: Family[];
  nullable: boolean;
  /** Optional in `Insertable<…>` (Generated, a ColumnType whose insert type allows undefined, or nullable). */
  optionalOnInsert: boolean;
}

export interface MigratedColumn {
  nullable: boolean;
  /** A default, an identity or a serial: an insert may leave the column out. */
  hasDefault: boolean;
  /** information_schema data_type: "integer", "timestamp with time zone", "ARRAY", "USER-DEFINED"… */
  dataType: string;
  udtName: string;
}

export type Tables<C> = Record<string, Record<string, C>>;

const DB_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Tables the migrator keeps for itself. */
const IGNORED_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

/** The families a column of this SQL type may be declared with (what `pg` and PGlite hand back). */
export function allowedFamilies(column: Pick<MigratedColumn, "dataType" | "udtName">): Family[] | "any" {
  switch (column.dataType) {
    case "boolean":
      return ["boolean"];
    case "smallint":
    case "integer":
    case "real":
    case "double precision":
      return ["number"];
    // pg reads int8 and numeric as strings (exactness); declaring them as numbers is a choice some columns make.
    case "bigint":
    case "numeric":
      return ["string", "number", "bigint"];
    case "text":
    case "character varying":
    case "character":
    case "uuid":
    case "inet":
    case "cidr":
    case "interval":
    case "time without time zone":
    case "time with time zone":
    case "USER-DEFINED": // enums, citext
      return ["string"];
    // A date is a Date from pg's default parser, a string when the query casts it (dates without a time zone).
    case "date":
      return ["string", "date"];
    case "timestamp with time zone":
    case "timestamp without time zone":
      return ["date"];
    case "json":
    case "jsonb":
      return "any";
    case "ARRAY":
      return ["array"];
    case "bytea":
      return ["object"];
    default:
      return ["unknown"];
  }
}

/** The declared tables and columns: `Database` of db/types.ts, as the TypeScript compiler sees it. */
export function readDeclaredColumns(typesFile = path.join(DB_DIR, "types.ts")): Tables<ColumnShape> {
  const probeFile = path.join(path.dirname(typesFile), "__db-types-probe.ts").split(path.sep).join("/");
  const probe = [
    `import type { Insertable, Selectable } from "kysely";`,
    `import type { Database } from "./${path.basename(typesFile, ".ts")}";`,
    `export type Probe = { [T in keyof Database]: Selectable<Database[T]> };`,
    `export type InsertProbe = { [T in keyof Database]: Insertable<Database[T]> };`,
  ].join("\n");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    fileName === probeFile ? ts.createSourceFile(fileName, probe, language) : getSourceFile(fileName, language, onError, shouldCreate);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName === probeFile || fileExists(fileName);
  const program = ts.createProgram([probeFile], options, host);
  const problems = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length) throw new Error(`db types do not compile: ${ts.flattenDiagnosticMessageText(problems[0].messageText, "\n")}`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probeFile)!;
  const [alias, insertAlias] = source.statements.filter(ts.isTypeAliasDeclaration);
  const probeType = checker.getTypeAtLocation(alias.name);
  const insertType = checker.getTypeAtLocation(insertAlias.name);

  const tables: Tables<ColumnShape> = {};
  for (const table of checker.getPropertiesOfType(probeType)) {
    const tableType = checker.getTypeOfSymbolAtLocation(table, alias);
    const insertTable = checker.getTypeOfSymbolAtLocation(checker.getPropertyOfType(insertType, table.name)!, insertAlias);
    const columns: Record<string, ColumnShape> = {};
    for (const column of checker.getPropertiesOfType(tableType)) {
      const onInsert = checker.getPropertyOfType(insertTable, column.name);
      // A column missing from Insertable (ColumnType<…, never, …>) is never inserted: as good as optional.
      const optionalOnInsert = !onInsert || (onInsert.flags & ts.SymbolFlags.Optional) !== 0;
      columns[column.name] = { ...shapeOf(checker, checker.getTypeOfSymbolAtLocation(column, alias)), optionalOnInsert };
    }
    tables[table.name] = columns;
  }
  return tables;
}

function shapeOf(checker: ts.TypeChecker, type: ts.Type): Omit<ColumnShape, "optionalOnInsert"> {
  const parts = type.isUnion() ? type.types : [type];
  const families = new Set<Family>();
  let nullable = false;
  for (const part of parts) {
    const flags = part.flags;
    if (flags & ts.TypeFlags.Null) nullable = true;
    else if (flags & ts.TypeFlags.Undefined) continue;
    else if (flags & ts.TypeFlags.StringLike) families.add("string");
    else if (flags & ts.TypeFlags.NumberLike) families.add("number");
    else if (flags & ts.TypeFlags.BigIntLike) families.add("bigint");
    else if (flags & ts.TypeFlags.BooleanLike) families.add("boolean");
    else if (flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) families.add("unknown");
    else if (part.getSymbol()?.getName() === "Date") families.add("date");
    else if (checker.isArrayType(part) || checker.isTupleType(part)) families.add("array");
    else families.add("object");
  }
  return { families: [...families].sort(), nullable };
}

/** The migrated tables and columns of the current schema (information_schema; PostgreSQL and PGlite alike). */
export async function readMigratedColumns(db: QueryExecutorProvider): Promise<Tables<MigratedColumn>> {
  const result = await sql<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    data_type: string;
    udt_name: string;
    has_default: boolean;
  }>`
    select c.table_name, c.column_name, c.is_nullable, c.data_type, c.udt_name,
           (c.column_default is not null or c.is_identity = 'YES' or c.is_generated = 'ALWAYS') as has_default
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`.execute(db);
  const tables: Tables<MigratedColumn> = {};
  for (const row of result.rows) {
    if (IGNORED_TABLES.has(row.table_name)) continue;
    (tables[row.table_name] ??= {})[row.column_name] = {
      nullable: row.is_nullable === "YES",
      hasDefault: Boolean(row.has_default),
      dataType: row.data_type,
      udtName: row.udt_name,
    };
  }
  return tables;
}

/** Every difference, one line each ("users.orcid: nullable in the database, not in db/types"); empty when in step. */
export function compareColumns(declared: Tables<ColumnShape>, migrated: Tables<MigratedColumn>): string[] {
  const drift: string[] = [];
  for (const table of Object.keys(migrated).sort())
    if (!declared[table]) drift.push(`${table}: a table in the database, missing from Database in db/types`);
  for (const table of Object.keys(declared).sort()) {
    const columns = migrated[table];
    if (!columns) {
      drift.push(`${table}: declared in db/types, no such table in the database`);
      continue;
    }
    for (const name of Object.keys(columns))
      if (!declared[table][name]) drift.push(`${table}.${name}: a column in the database, missing from db/types`);
    for (const [name, shape] of Object.entries(declared[table])) {
      const column = columns[name];
      if (!column) {
        drift.push(`${table}.${name}: declared in db/types, no such column in the database`);
        continue;
      }
      if (column.nullable !== shape.nullable)
        drift.push(
          column.nullable
            ? `${table}.${name}: nullable in the database, its type in db/types has no null`
            : `${table}.${name}: not null in the database, its type in db/types allows null`,
        );
      // The other way round (a default the type does not know of) only makes inserts stricter than needed.
      if (shape.optionalOnInsert && !column.nullable && !column.hasDefault)
        drift.push(`${table}.${name}: optional on insert in db/types (Generated?), but not null without a default in the database`);
      const allowed = allowedFamilies(column);
      if (allowed === "any") continue;
      const wrong = shape.families.filter((family) => !allowed.includes(family));
      if (wrong.length || shape.families.length === 0)
        drift.push(
          `${table}.${name}: ${column.dataType === "USER-DEFINED" || column.dataType === "ARRAY" ? column.udtName : column.dataType} in the database, ` +
            `declared as ${shape.families.join(" | ") || "never"} (expected ${allowed.join(" or ")})`,
        );
    }
  }
  return drift.sort();
}

/** Reads both sides and compares them. */
export async function checkDatabaseTypes(db: QueryExecutorProvider): Promise<string[]> {
  return compareColumns(readDeclaredColumns(), await readMigratedColumns(db));
}
