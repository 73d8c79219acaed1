import type { MetaFunction } from "@remix-run/node";

/** Pages put a translated `title` in their loader data; this turns it into <title>. */
export const titleMeta: MetaFunction = ({ data, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  const company = (matches.find((m) => m.id === "root")?.data as { site?: { companyShortName?: string } } | undefined)?.site
    ?.companyShortName;
  return [{ title: title ? (company ? `${title} | ${company}` : title) : (company ?? "") }];
};
