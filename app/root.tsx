import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { routeNamespaces, useRouteNamespaces, useTranslator } from "./lib/translate";
import type { ReactNode } from "react";
import stylesHref from "./styles/app.css?url";
import { useNonce } from "./lib/nonce";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { getCurrentSession } from "./lib/session.server";
import { getUserView } from "#server/accounts/account";
import { shellState } from "#server/accounts/shell";
import { localizationForHost } from "#server/config";
import { detectLang } from "./i18n.server";
import { ErrorPanel } from "./components/ErrorPanel";
import { NetworkErrorModal, failedInBrowser, useMarkAppMounted } from "./components/NetworkErrorModal";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = await detectLang(request);
  const [session, snapshot] = await Promise.all([getCurrentSession(request, context), context.app.config.snapshot()]);
  const { config, flags } = snapshot;
  const view = session ? await getUserView(context.app, session.user.id) : null;
  const site = localizationForHost(snapshot.localizations, request.headers.get("host"));
  return {
    lang,
    user:
      session && view
        ? {
            identity: session.user.identity,
            firstName: view.firstName,
            lastName: view.lastName,
            email: view.email,
            isStaff: session.user.isStaff,
            impersonatorName: session.impersonatorName,
            shell: shellState(view, site.identity, snapshot.localizations),
            // Issue 25 (helper H): the sub-navigation's welcome and the spam banner (spec 3 §4, §6).
            fullName: view.fullName,
            showCheckSpamMessage: view.showCheckSpamMessage,
          }
        : null,
    site: {
      companyShortName: config.companyShortName,
      companyFoundedYear: config.companyFoundedYear,
      siteLanguages: [...config.siteLanguages] as SiteLang[],
    },
    flags: { new_login: flags.new_login, wechat_sso: flags.wechat_sso, curie_is_launched: flags.curie_is_launched },
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

// Serialised bundles per language and namespace set; translations do not change while the process runs.
const serialised = new Map<string, string>();

/** The translations this page needs, embedded as JSON so the client hydrates without fetching them. */
function I18nResources() {
  const translator = useTranslator();
  const namespaces = routeNamespaces(useMatches());
  const key = `${translator.lang}:${[...namespaces].sort().join(",")}`;
  let json = serialised.get(key);
  if (!json) {
    const data: Record<string, unknown> = {};
    for (const ns of namespaces) {
      const bundle = translator.has(ns) ? translator.resources[ns] : undefined;
      if (bundle) data[ns] = bundle;
    }
    json = JSON.stringify(data).replace(/</g, "\\u003c");
    if (typeof document === "undefined") serialised.set(key, json);
  }
  return <script id="i18n-resources" type="application/json" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />;
}

export function Layout({ children }: { children: ReactNode }) {
  const lang = useTranslator().lang;
  const nonce = useNonce();
  return (
    <html lang={LANG_TAG[lang]} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <I18nResources />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // Every namespace the matched routes declare is loaded before they render (issue 9 §3.12).
  useRouteNamespaces(routeNamespaces(useMatches()));
  useMarkAppMounted();
  return <Outlet />;
}

export const handle = { i18n: ["common"] };

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A client-side navigation or submission that failed at the network level, or got a 5xx without a page
  // (spec 1 §5 'network-request-error', ADR 065); a 4xx is the page's own answer and needs no modal.
  const networkFailure = failedInBrowser() && status >= 500;
  return (
    <div className="error-shell">
      <ErrorPanel status={status} />
      {networkFailure ? <NetworkErrorModal /> : null}
    </div>
  );
}
