// Account API (spec 1 §2, §3): the signed-in user's account, details, saved addresses, order count, the
// country prompt, and the redirect to the user's own localisation's site. Bodies are parsed with the
// shared schemas (app/common/accounts/schemas.ts); handlers call the same domain functions as the pages.
import { safeRedirect, paths } from "#common/paths";
import { isSiteLang } from "#common/i18n";
import { serialIdParam } from "#common/integers";
import { fail, invalid, ok, type Result } from "#common/result";
import { addressBodySchema, countryPromptStatusBodySchema, countryRefBodySchema, detailsBodySchema } from "#common/accounts/schemas";
import { endpoint, reply, type EndpointTable, type HandlerAnswer, type HandlerInput } from "../http/api/endpoint";
import { localizationForHost } from "../config";
import {
  acceptWfoeTerms,
  accountOf,
  countryPromptShown,
  orderCount,
  recordCountryPromptStatus,
  setCountryByRef,
  updateDetails,
} from "./account";
import { deleteAddress, myAddress, myAddresses, saveAddress } from "./addresses";
import { localizationRedirectTarget } from "./localization";

/** A call on one's own account only: `{identity}` in the path must be the signed-in user's, else 403. */
function ownAccount<B>(handler: (input: HandlerInput<B, undefined>) => Promise<HandlerAnswer>) {
  return (input: HandlerInput<B, undefined>) =>
    input.params.identity === input.scope.session?.user.identity ? handler(input) : fail("forbidden");
}

/** One saved address as the API shows it: `{ address }`, or the Result's error (another user's is a 404). */
const addressAnswer = <T>(r: Result<T>) => (r.ok ? ok({ address: r.value }) : r);

export const accountsApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/account",
    auth: "user",
    summary: 'The signed-in user\'s account (spec 1 §3 "User") and the found-us options.',
    async handler({ scope }) {
      return ok(await accountOf(scope));
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/account/redirect",
    auth: "optional",
    summary: "302 to ?redirect= (a same-site path) on the signed-in user's own localisation's site (spec 1 §2).",
    async handler({ scope, webRequest }) {
      const request = webRequest();
      const url = new URL(request.url);
      const path = safeRedirect(url.searchParams.get("redirect"), scope.session ? paths.researcher(scope.lang) : paths.home(scope.lang));
      if (!scope.session) return Response.redirect(new URL(path, url.origin).toString(), 302);
      const snapshot = await scope.app.config.snapshot();
      const site = localizationForHost(snapshot.localizations, scope.host);
      const target = localizationRedirectTarget(
        snapshot.localizations,
        site.identity,
        scope.session.user.localization,
        path,
        new URL(request.url),
      );
      return new Response(null, { status: 302, headers: { Location: target, "Cache-Control": "no-store" } });
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/account/:identity/update-details",
    auth: "user",
    body: detailsBodySchema,
    summary: "Saves one's own account details → { userDetails }; another user's identity is a 403.",
    handler: ownAccount(async ({ scope, body }) => {
      const language = body.language ?? scope.session!.user.language;
      if (!isSiteLang(language)) return invalid({ language: "auth:register.errors.language-required" });
      const r = await updateDetails(scope, { ...body, language });
      return r.ok ? ok({ userDetails: r.value }) : r;
    }),
  }),
  endpoint({
    method: "GET",
    path: "/api/account/addresses",
    auth: "user",
    summary: "The signed-in user's saved addresses.",
    async handler({ scope }) {
      return ok({ addresses: await myAddresses(scope) });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/account/addresses",
    auth: "user",
    body: addressBodySchema,
    summary: 'Creates an address (spec 2 §5 "Address") → 201 { address }.',
    async handler({ scope, body }) {
      const r = await saveAddress(scope, null, body);
      return r.ok ? reply({ address: r.value }, { status: 201 }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/account/addresses/:id",
    auth: "user",
    params: { id: serialIdParam() },
    summary: "One of one's own addresses; another user's is a 404.",
    async handler({ scope, params }) {
      return addressAnswer(await myAddress(scope, Number(params.id)));
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/account/addresses/:id",
    auth: "user",
    params: { id: serialIdParam() },
    body: addressBodySchema,
    summary: "Replaces one of one's own addresses → { address }; another user's is a 404.",
    async handler({ scope, params, body }) {
      return addressAnswer(await saveAddress(scope, Number(params.id), body));
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/api/account/addresses/:id",
    auth: "user",
    params: { id: serialIdParam() },
    summary: "Deletes one of one's own addresses → { deleted: true }; another user's is a 404.",
    async handler({ scope, params }) {
      const r = await deleteAddress(scope, Number(params.id));
      return r.ok ? ok({ deleted: true }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/users/:id/order-count",
    auth: "user",
    summary: "{ numberOfOrders } of the signed-in user ({id}: their identity or numeric id); anyone else's is a 403.",
    async handler({ scope, params }) {
      const { user } = scope.session!;
      if (params.id !== user.identity && params.id !== String(user.id)) return fail("forbidden");
      return ok({ numberOfOrders: await orderCount(scope.app, user.id) });
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/users/:id/wfoe-tos-accepted",
    auth: "user",
    summary: "Accepts the local entity's terms (spec 2 §4 'Migration'; {id}: one's identity or numeric id, anyone else's is a 403) → {}.",
    async handler({ scope, params }) {
      const { user } = scope.session!;
      if (params.id !== user.identity && params.id !== String(user.id)) return fail("forbidden");
      const r = await acceptWfoeTerms(scope);
      return r.ok ? ok({}) : r;
    },
  }),
  endpoint({
    method: "PUT",
    path: "/api/snid-account/update-country/:identity",
    auth: "user",
    body: countryRefBodySchema,
    summary: "Sets one's own country from { id } (a country id or ISO code) → { shouldDisplayCountryModal: false }.",
    handler: ownAccount(async ({ scope, body }) => {
      const r = await setCountryByRef(scope, body.id);
      return r.ok ? ok({ shouldDisplayCountryModal: false }) : r;
    }),
  }),
  endpoint({
    method: "GET",
    path: "/api/snid-account/country-update-status/:identity",
    auth: "user",
    summary: "{ shouldDisplayCountryModal }: whether one is asked for one's country.",
    handler: ownAccount(async ({ scope }) => ok({ shouldDisplayCountryModal: await countryPromptShown(scope) })),
  }),
  endpoint({
    method: "POST",
    path: "/api/snid-account/country-update-status/:identity",
    auth: "user",
    body: countryPromptStatusBodySchema,
    summary: "Records { updateStatus: dismissed | updated | pending } of the country prompt → { shouldDisplayCountryModal }.",
    handler: ownAccount(async ({ scope, body }) => recordCountryPromptStatus(scope, body.updateStatus)),
  }),
];
