// Researchers and orders made through the JSON API, as a browser or curl would make them: the data of the
// benchmarks (scripts/bench.ts, scripts/bench-browser.ts) and the researcher of the browser suite
// (tests/e2e/helpers.ts newResearcher). No server module is imported: everything goes over HTTP.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";

/** The body of POST /api/auth/register for a US researcher who accepts the terms. */
export function registrationBody(email: string, password: string, firstName = "Bench", lastName = "Researcher") {
  return {
    email,
    password,
    firstName,
    lastName,
    countryCode: "US",
    phoneNumber: "2025550123",
    country: "US",
    currency: "USD",
    language: "en",
    agreeToTOS: true,
  };
}

/** `name=value` of the cookie `name` a response sets, if it sets one. */
export const cookieOf = (r: Response, name: string) =>
  r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`));

/** Registers a researcher with a fresh address: their session cookie. */
export async function registerResearcher(base: string, emailPrefix = "bench"): Promise<string> {
  const email = `${emailPrefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(registrationBody(email, "Bench#Researcher-2026")),
  });
  const sid = reg.status === 201 ? cookieOf(reg, "sid") : undefined;
  if (!sid) throw new Error(`researcher: ${reg.status} ${await reg.text()}`);
  return sid;
}

let docxBytes: Buffer | undefined;
/** A small real .docx (scripts/make-docx.mjs), made once per process. */
export function docx(): Buffer {
  if (!docxBytes) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-docx-")), "paper.docx");
    spawnSync(process.execPath, ["scripts/make-docx.mjs", file], { stdio: "ignore" });
    docxBytes = fs.readFileSync(file);
  }
  return docxBytes;
}

/** A JSON caller of the API as the visitor whose cookie this is. */
export function jsonApi(base: string, cookie: string) {
  return (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(base + pathname, {
      method,
      headers: { cookie, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** The first area of study matching "bio". */
export async function areaId(base: string, cookie: string): Promise<number> {
  return (await (await jsonApi(base, cookie)("GET", "/api/areas-of-study?q=bio")).json()).areas[0].id;
}

/** A new order form of the visitor, with its .docx, filled through the details step: its identity. */
export async function fillDraft(
  base: string,
  cookie: string,
  { title = "Bench order", service = "standard-editing", area }: { title?: string; service?: string; area?: number } = {},
): Promise<string> {
  const json = jsonApi(base, cookie);
  const areaOfStudyId = area ?? (await areaId(base, cookie));
  const id = (await (await json("GET", "/api/order-form/new")).json()).orderForm.identity as string;
  const fd = new FormData();
  fd.append("mainFiles", new Blob([new Uint8Array(docx())]), "paper.docx");
  await fetch(`${base}/api/order-form/${id}/files`, { method: "POST", headers: { cookie }, body: fd });
  await json("PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 3000, language: 1 });
  await json("PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: [service] });
  await json("PUT", `/api/order-form/${id}/step`, { step: "details" });
  const details = await json("PUT", `/api/order-form/${id}/details`, { projectTitle: title, areaOfStudyId, styleOfEnglish: "american" });
  if (!details.ok) throw new Error(`draft details: ${details.status} ${await details.text()}`);
  return id;
}

/**
 * Places a filled order form by bank transfer (an unpaid invoice). The upload's analysis (a background job) may
 * still be changing the form: placing it then answers not-ready, so it is tried again shortly.
 */
export async function placeByBankTransfer(base: string, cookie: string, id: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const placed = await jsonApi(base, cookie)("POST", `/api/order-form/${id}/payments`, {
      paymentMethodId: 9,
      acceptedTermsAndConditions: true,
    });
    if (placed.status === 201) return;
    const text = await placed.text();
    if (attempt === 10 || !text.includes("not-ready")) throw new Error(`order ${id}: ${placed.status} ${text}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
