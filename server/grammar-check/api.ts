// The grammar-check JSON API (spec 3 §7): search, create, archive, delete, a captcha challenge for scripted
// clients, and the 'Get Started' link that starts an order form with the assessed manuscript.
// Errors of create are `{ error, jsonEncodedParams }` (the params a JSON string the page decodes, spec 3 §7).
import { fail, ok } from "#common/result";
import { paths } from "#common/paths";
import { assessmentSearchQuery, POLL_IDENTITIES_MAX } from "#common/grammar-check/schemas";
import { endpoint, reply, seeOther, type EndpointTable } from "../http/api/endpoint";
import { cookies } from "../http/cookies";
import { multipartBody } from "../http/multipart";
import {
  archiveAssessment,
  captchaChallenge,
  createAssessment,
  deleteAssessment,
  grammarCheckAccess,
  searchAssessments,
  startOrderFromAssessment,
} from "./index";

/** Every `identities` / `identities[]` of the query string, comma-separated values split; null when none is given. */
function identitiesOf(url: string): string[] | null {
  const q = url.indexOf("?");
  const params = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
  const raw = [...params.getAll("identities"), ...params.getAll("identities[]")];
  if (!raw.length) return null;
  return raw
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

const IDENTITY = "/api/grammar-check/:identity";

export const grammarCheckApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/grammar-check/search",
    auth: "optional",
    query: assessmentSearchQuery,
    summary:
      "The caller's assessments, newest first (page size 30; ?page= or ?identities[]= to poll), with the percentile curve in use and its reference set.",
    async handler({ scope, query, req }) {
      const identities = identitiesOf(req.originalUrl);
      if (identities && identities.length > POLL_IDENTITIES_MAX) return fail("too-many-identities");
      return searchAssessments(scope, { page: query.page, identities: identities ?? undefined });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/grammar-check/create",
    auth: "optional",
    body: "stream",
    summary:
      "Starts an assessment of one .doc/.docx (multipart: file; visitors with the captcha flag: altcha or captchaToken + captchaAnswer). Errors { error, jsonEncodedParams }.",
    async handler({ scope, webRequest }) {
      const r = await createAssessment(scope, multipartBody(webRequest()));
      if (!r.ok) return r;
      // A visitor without a draft cookie was given a key: it binds the assessment to this browser.
      const setCookies = r.value.newDraftKey ? [cookies.draft.serialize(r.value.newDraftKey, scope.secure)] : undefined;
      return reply({ languageAssessments: r.value.languageAssessments }, { status: 201, cookies: setCookies });
    },
  }),
  endpoint({
    method: "POST",
    path: `${IDENTITY}/archive`,
    auth: "optional",
    summary: "Archives one of the researcher's assessments (signed-in users only); answers its fileName for '{fileName} archived'.",
    handler: ({ scope, params }) => archiveAssessment(scope, params.identity),
  }),
  endpoint({
    method: "POST",
    path: `${IDENTITY}/delete`,
    auth: "optional",
    summary: "Deletes a failed assessment ('could not complete') and its file; 409 assessment-not-failed otherwise.",
    handler: ({ scope, params }) => deleteAssessment(scope, params.identity),
  }),
  endpoint({
    method: "GET",
    path: "/api/grammar-check/captcha",
    auth: "optional",
    summary: "A fresh captcha challenge (proof of work and question; ten minutes, single use) for scripted visitors.",
    async handler({ scope }) {
      const access = await grammarCheckAccess(scope);
      if (!access.allowed) return fail(access.redirect === "login" ? "sign-in-required" : "forbidden");
      return ok({ captcha: await captchaChallenge(scope), required: access.captcha });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order-form/from-language-assessment/:identity",
    auth: "optional",
    summary:
      "The 'Get Started' link of a report: the order form draft with the assessed manuscript attached (once, however often followed); browsers get 303 to the wizard, JSON callers { orderFormId }.",
    async handler({ scope, params, req }) {
      const r = await startOrderFromAssessment(scope, params.identity);
      if (!r.ok) return r;
      if ((req.get("accept") ?? "").includes("text/html")) return seeOther(paths.submitAnyLang("get-started"));
      return ok(r.value);
    },
  }),
];
