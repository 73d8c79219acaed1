// The wizard's get-started page and PUT /api/order-form/{id}/basic-details parse the same schema and call
// the same domain function (issue 8 §1): the same bad input is refused with the same field error, and the
// same good input is accepted by both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client } from "../helpers/portal";
import type { RunningPortal } from "../../server/boot";
import { fixedT } from "#server/i18n";

let portal: RunningPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const t = fixedT("en", "order");
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#x27;");
const putJson = (c: Client, path: string, body: unknown) =>
  c.request(path, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("get-started page and API", () => {
  it("refuse the same bad word count with the same field error, and accept the same good one", async () => {
    const c = new Client(portal.url);
    const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    const api = (wordCount: string) =>
      putJson(c, `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", uploadFilesLater: true, wordCount, language: 1 });
    const page = (wordCount: string) =>
      c.post("/en/researcher/submit/get-started", {
        intent: "next",
        customerGoal: "manuscript",
        uploadFilesLater: "on",
        wordCount,
        languageId: "1",
      });

    for (const wordCount of ["0", "1000000", "12.5", "many", ""]) {
      const fromApi = await api(wordCount);
      expect(fromApi.status).toBe(400);
      const { fieldErrors } = (await fromApi.json()) as { fieldErrors: Record<string, string> };
      expect(Object.keys(fieldErrors)).toEqual(["wordCount"]);

      const fromPage = await page(wordCount);
      expect(fromPage.status).toBe(400);
      const text = await fromPage.text();
      expect(text).toContain(html(t(`errors.${fieldErrors.wordCount}`)));
      expect(text).not.toContain(html(t("errors.files-required")));
    }

    expect((await api("4500")).status).toBe(200);
    const fromPage = await page("4500");
    expect(fromPage.status).toBe(303);
    expect(fromPage.headers.get("location")).toBe("/en/researcher/submit/manuscript-services");
  });
});
