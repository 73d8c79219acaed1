import { Outlet, isRouteErrorResponse, useLoaderData, useLocation, useMatches, useRouteError } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Header } from "#app/components/Header";
import { Footer } from "#app/components/Footer";
import { ErrorPanel } from "#app/components/ErrorPanel";
import { CountryPrompt, ImpersonationBanner, ShellBanner } from "#app/components/ShellNotices";
import { useRootData } from "#app/root";
import { pageScope } from "#app/lib/scope.server";
import { countryPromptCountries } from "#server/accounts/account";
import { localizeCountries } from "#app/lib/countries.server";
import { isSiteLang } from "#common/i18n";
import { titleMeta } from "#app/lib/meta";
import { SubNav } from "#app/components/home/SubNav";

// The title of pages without their own meta, and of this layout's error page.
export const meta = titleMeta;
// The sub-navigation (issue 25) speaks the "home" namespace on every page with chrome.
export const handle = { i18n: ["home"] };

// The country list is sent only to users who still have to choose their country.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!isSiteLang(params.lang)) return { countries: null };
  const countries = await countryPromptCountries(await pageScope(request, context));
  if (!countries) return { countries: null };
  return { countries: localizeCountries(countries, params.lang).map((c) => ({ iso2: c.iso2, name: c.name })) };
}

// Page chrome shared by every page except the order form.
function Chrome({ children }: { children: React.ReactNode }) {
  return (
    <>
      <ImpersonationBanner />
      <Header />
      <SubNav />
      <main id="main" className="page">
        {children}
      </main>
      <Footer />
    </>
  );
}

/** Pages that stay reachable behind a shell banner. */
const UNBLOCKED = /^\/[a-z]{2}\/(account|logout|staff|login|register|terms|privacy|support)(\/|$)/;

export default function ChromeLayout() {
  const { countries } = useLoaderData<typeof loader>();
  const banner = useRootData()?.user?.shell.banner;
  const location = useLocation();
  // A page that asks for the country itself (the dashboard's modal) says so in its handle.
  const ownPrompt = useMatches().some((m) => (m.handle as { countryPrompt?: string } | undefined)?.countryPrompt === "own");
  const blocked = Boolean(banner) && !UNBLOCKED.test(location.pathname);
  return (
    <Chrome>
      {countries && !ownPrompt && !/\/account\/country/.test(location.pathname) ? <CountryPrompt countries={countries} /> : null}
      {blocked ? <ShellBanner /> : <Outlet />}
    </Chrome>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Chrome>
      <ErrorPanel status={isRouteErrorResponse(error) ? error.status : 500} />
    </Chrome>
  );
}
