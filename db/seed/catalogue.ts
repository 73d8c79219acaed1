// Catalogue seed (services, prices, bundles, discounts, areas of study, holidays): filled in with the pricing engine.
import type { Kysely } from "kysely";
import type { Database } from "../types";

export async function seedCatalogue(_db: Kysely<Database>): Promise<void> {}
