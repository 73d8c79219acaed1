import { Outlet } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { isSiteLang } from "#common/i18n";

// Every page sits under a language prefix; an unknown prefix is a 404 page.
export function loader({ params }: LoaderFunctionArgs) {
  if (!isSiteLang(params.lang)) throw new Response("Not Found", { status: 404 });
  return null;
}

export default function LangLayout() {
  return <Outlet />;
}
