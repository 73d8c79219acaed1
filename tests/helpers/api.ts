// JSON API calls that several HTTP tests make the same way.
import type { Client } from "./portal";
import { makeDocx } from "./fixtures";

/** A request with a JSON body (when `body` is given) and a JSON content type. */
export function sendJson(c: Client, method: string, path: string, body?: unknown): Promise<Response> {
  return c.request(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Uploads a .docx holding `text` as a main file of order form `id` (POST /files); the answer. */
export async function uploadDocx(
  c: Client,
  id: string,
  { text = "The results suggest a strong effect of temperature on growth. ", name = "paper.docx" } = {},
): Promise<Response> {
  const fd = new FormData();
  fd.append("mainFiles", new Blob([new Uint8Array(await makeDocx(text.repeat(30)))]), name);
  return c.request(`/api/order-form/${id}/files`, { method: "POST", body: fd });
}

export interface PlacedViaApi {
  order: { externalId: string; total: number };
}

/**
 * Saves the details step of order form `id` (titled `projectTitle`, the first "bio" area of study, American
 * English) and places it by bank transfer through POST /payments; the answer of that call.
 */
export async function saveDetailsAndPlace(c: Client, id: string, projectTitle: string): Promise<PlacedViaApi> {
  const area = (await (await c.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  await sendJson(c, "PUT", `/api/order-form/${id}/details`, { projectTitle, areaOfStudyId: area, styleOfEnglish: "american" });
  const r = await sendJson(c, "POST", `/api/order-form/${id}/payments`, { paymentMethodId: 9, acceptedTermsAndConditions: true });
  return (await r.json()) as PlacedViaApi;
}

/** The address an intruder tries to write over another user's with (the write must be refused). */
export const FOREIGN_ADDRESS = { label: "billing", name: "X", address1: "Y", city: "Z", country: "DE" };

/** The second stage of the registration form for a US researcher (phone, country, currency, language, terms). */
export const US_REGISTRATION_FIELDS = {
  countryCode: "US",
  phoneNumber: "2025550199",
  country: "US",
  currency: "USD",
  language: "en",
  agreeToTOS: "on",
};
