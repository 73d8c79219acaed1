// Tables of the catalogue and pricing (see db/migrations/0006_catalogue.ts).
export interface CatalogueTables {}
