// docs/api.md cannot drift from the endpoint tables (ADR 013).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { API_TABLES } from "#server/api-tables";
import { checkApiDocs, curlCalls, endpointIndex } from "#server/http/api/docs";
import { endpoint } from "#server/http/api/endpoint";
import { ok } from "#common/result";

describe("docs/api.md", () => {
  const markdown = fs.readFileSync("docs/api.md", "utf8");
  const result = checkApiDocs(markdown, API_TABLES);

  it("has a curl example for every declared endpoint", () => {
    expect(result.undocumented).toEqual([]);
  });
  it("shows no curl example of an endpoint that does not exist", () => {
    expect(result.unknown).toEqual([]);
  });
  it("carries the endpoint index generated from the tables (npm run docs:api)", () => {
    expect(result.indexCurrent).toBe(true);
  });

  it("the check notices a missing example and an unknown call", () => {
    const table = [
      endpoint({ method: "GET", path: "/api/things/:id", auth: "user", summary: "A thing.", handler: () => ok({}) }),
      endpoint({ method: "POST", path: "/api/things", auth: "user", summary: "Makes a thing.", handler: () => ok({}) }),
    ];
    const docs = ["```sh", "curl -s -b $JAR $BASE/api/things/12", "curl -s -X DELETE $BASE/api/things/12", "```"].join("\n");
    expect(curlCalls(docs).map((c) => `${c.method} ${c.path}`)).toEqual(["GET /api/things/12", "DELETE /api/things/12"]);
    const r = checkApiDocs(docs, [table]);
    expect(r.undocumented).toEqual(["POST /api/things"]);
    expect(r.unknown).toEqual(["DELETE /api/things/12 (docs/api.md line 3)"]);
    expect(r.indexCurrent).toBe(false);
    expect(checkApiDocs(`${docs}\n${endpointIndex([table])}`, [table]).indexCurrent).toBe(true);
  });
});
