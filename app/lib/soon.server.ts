import { requireLang } from "./session.server";
import { getFixedT } from "../i18n.server";

// Which area a "coming" page is for is decided by its path, as loaders do not know their route id.
export const PUBLIC_AREAS: [RegExp, string][] = [
  [/^\/certificate(\/|$)/, "certificate"],
  [/^\/support(\/|$)/, "support"],
  [/^\/rubriq(\/|$)/, "rubriq"],
];

export const PROTECTED_AREAS: [RegExp, string][] = [
  [/^\/researcher\/coupons/, "coupons"],
  [/^\/researcher\/prepay(\/|$)/, "prepay"],
  [/^\/researcher\/invoices(\/|$)/, "invoices"],
  [/^\/researcher\/rewards/, "rewards"],
  [/^\/referral-rewards(\/|$)/, "referral-rewards"],
  [/^\/home(\/|$)/, "home"],
  [/^\/testimonials(\/|$)/, "testimonials"],
];

export async function soonLoader(request: Request, table: [RegExp, string][]) {
  requireLang(request);
  const path = new URL(request.url).pathname.replace(/^\/[a-z]{2}/, "");
  const area = table.find(([re]) => re.test(path))?.[1] ?? "researcher";
  const t = await getFixedT(request);
  return { title: t(`soon.areas.${area}`), area };
}
