// Areas of study (spec 1 §3, §5): a search over the names of all three levels in
// the page's language, and the tree for the three cascading selects that replace
// the search without JavaScript. Names are data (five columns), not translations.
import { sql } from "kysely";
import type { DB } from "../db";
import type { SiteLang } from "#common/i18n";

/** Search needs at least 2 characters and shows at most 6 matches (spec 1 §9). */
export const AREA_SEARCH_MIN_CHARS = 2;
export const AREA_SEARCH_MAX_RESULTS = 6;

const NAME_COLUMN = { en: "name_en", cn: "name_zh", jp: "name_ja", br: "name_pt", es: "name_es" } as const satisfies Record<
  SiteLang,
  string
>;
type NameColumn = (typeof NAME_COLUMN)[SiteLang];

export interface AreaMatch {
  id: number;
  name: string;
  parentId: number;
  parentName: string;
  grandparentId: number;
  grandparentName: string;
  /** "Field › Discipline › Specialty", what the search shows and matches. */
  searchParam: string;
}

export interface AreaNode {
  id: number;
  name: string;
  children: AreaNode[];
}

function column(lang: SiteLang): NameColumn {
  return NAME_COLUMN[lang] ?? NAME_COLUMN.en;
}

/** Escapes LIKE wildcards so a user's "%" or "_" is matched literally. */
function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Level-3 areas whose own, parent or grandparent name contains `query` (case-insensitive). */
export async function searchAreasOfStudy(db: DB, query: string, lang: SiteLang): Promise<AreaMatch[]> {
  const q = query.trim();
  if ([...q].length < AREA_SEARCH_MIN_CHARS) return [];
  const col = column(lang);
  const pattern = likePattern(q);
  const leaf = sql.ref(`l.${col}`);
  const parent = sql.ref(`p.${col}`);
  const grand = sql.ref(`g.${col}`);
  // English names match in every language too: researchers often know their field by its English name,
  // and scripts (scripts/order-via-curl.sh) search "bio" whatever the account's language. Names are
  // still shown in the page's language.
  const matches = (level: "l" | "p" | "g") =>
    col === "name_en"
      ? sql<boolean>`${sql.ref(`${level}.${col}`)} ilike ${pattern}`
      : sql<boolean>`(${sql.ref(`${level}.${col}`)} ilike ${pattern} or ${sql.ref(`${level}.name_en`)} ilike ${pattern})`;
  const rows = await db
    .selectFrom("areas_of_study as l")
    .innerJoin("areas_of_study as p", "p.id", "l.parent_id")
    .innerJoin("areas_of_study as g", "g.id", "p.parent_id")
    .select([
      "l.id as id",
      sql<string>`${leaf}`.as("name"),
      "p.id as parent_id",
      sql<string>`${parent}`.as("parent_name"),
      "g.id as grandparent_id",
      sql<string>`${grand}`.as("grandparent_name"),
    ])
    .where("l.level", "=", 3)
    .where("l.active", "=", true)
    .where(sql<boolean>`(${matches("l")} or ${matches("p")} or ${matches("g")})`)
    // Specialties named like the query first (in the page's language before English), then those found
    // through their discipline or field.
    .orderBy(sql`case when ${leaf} ilike ${pattern} then 0 when ${matches("l")} then 1 when ${matches("p")} then 2 else 3 end`)
    .orderBy("l.sort_order")
    .limit(AREA_SEARCH_MAX_RESULTS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parentId: r.parent_id,
    parentName: r.parent_name,
    grandparentId: r.grandparent_id,
    grandparentName: r.grandparent_name,
    searchParam: `${r.grandparent_name} › ${r.parent_name} › ${r.name}`,
  }));
}

/** Fields → disciplines → specialties, in catalogue order, named in `lang`. */
export async function areaTree(db: DB, lang: SiteLang): Promise<AreaNode[]> {
  const col = column(lang);
  const rows = await db
    .selectFrom("areas_of_study")
    .select(["id", "parent_id", "level", sql<string>`${sql.ref(col)}`.as("name")])
    .where("active", "=", true)
    .orderBy("level")
    .orderBy("sort_order")
    .execute();
  const nodes = new Map<number, AreaNode>();
  const roots: AreaNode[] = [];
  for (const r of rows) {
    const node: AreaNode = { id: r.id, name: r.name, children: [] };
    nodes.set(r.id, node);
    if (r.parent_id === null) roots.push(node);
    else nodes.get(r.parent_id)?.children.push(node);
  }
  return roots;
}

/** One area with its ancestors (for showing a saved choice), or undefined. */
export async function getAreaOfStudy(db: DB, id: number, lang: SiteLang): Promise<AreaMatch | undefined> {
  const col = column(lang);
  const row = await db
    .selectFrom("areas_of_study as l")
    .innerJoin("areas_of_study as p", "p.id", "l.parent_id")
    .innerJoin("areas_of_study as g", "g.id", "p.parent_id")
    .select([
      "l.id as id",
      sql<string>`${sql.ref(`l.${col}`)}`.as("name"),
      "p.id as parent_id",
      sql<string>`${sql.ref(`p.${col}`)}`.as("parent_name"),
      "g.id as grandparent_id",
      sql<string>`${sql.ref(`g.${col}`)}`.as("grandparent_name"),
    ])
    .where("l.id", "=", id)
    .where("l.level", "=", 3)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    parentName: row.parent_name,
    grandparentId: row.grandparent_id,
    grandparentName: row.grandparent_name,
    searchParam: `${row.grandparent_name} › ${row.parent_name} › ${row.name}`,
  };
}
