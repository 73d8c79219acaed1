import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { isSiteLang } from "#common/i18n";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { countryPromptSchema, type CountryPromptInput } from "#common/accounts/schemas";
import { paths, safeRedirect } from "#common/paths";
import { setCountry } from "#server/accounts/account";

// POST /{lang}/account/country: the answer of the country prompt.
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const submission = await parseForm<CountryPromptInput>(request, countryPromptSchema);
  // The schema takes any text: an unknown or missing country is the domain's answer.
  const value = submission.status === "success" ? submission.value : {};
  const r = await setCountry(scope, value.country ?? "");
  const back = safeRedirect(value.redirect, paths.researcher(scope.lang));
  return redirect(r.ok ? back : `${back}${back.includes("?") ? "&" : "?"}countryError=1`, { status: 303 });
}

// The prompt is part of every page (the layout shows it); this address only takes its answer. Someone who
// opens it (a bookmark, a reload after posting) goes to their account instead of a bare 404.
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(paths.account(isSiteLang(params.lang) ? params.lang : "en"));
}
