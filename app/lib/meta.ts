import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

/**
 * Pages put a translated `title` in their loader data; this turns it into <title>. On an error page (the
 * route's ErrorBoundary renders) the title is the one the thrown response carries (`{ title }`, translated
 * by the loader that threw it), else the status code: a document always has a title (axe: document-title).
 */
export const titleMeta: MetaFunction = ({ data, matches, error }) => {
  const company = (matches.find((m) => m.id === "root")?.data as { site?: { companyShortName?: string } } | undefined)?.site
    ?.companyShortName;
  const title = error ? errorTitle(error) : (data as { title?: string } | undefined)?.title;
  return [{ title: title ? (company ? `${title} | ${company}` : title) : (company ?? "") }];
};

function errorTitle(error: unknown): string {
  if (!isRouteErrorResponse(error)) return "500";
  const title = (error.data as { title?: unknown } | null)?.title;
  return typeof title === "string" && title ? title : String(error.status);
}
