// npm run docs:api: rewrites the endpoint index of docs/api.md from the endpoint tables.
import fs from "node:fs";
import { API_TABLES } from "../server/api-tables";
import { checkApiDocs, withEndpointIndex } from "../server/http/api/docs";

const file = "docs/api.md";
const next = withEndpointIndex(fs.readFileSync(file, "utf8"), API_TABLES);
fs.writeFileSync(file, next);
const { undocumented, unknown } = checkApiDocs(next, API_TABLES);
for (const e of undocumented) console.log(`no curl example: ${e}`);
for (const c of unknown) console.log(`curl example of no endpoint: ${c}`);
console.log(`docs/api.md: ${API_TABLES.flat().length} endpoints indexed`);
