// Social sign-in providers (filled in with the social sign-in capability).
import type { AppContext } from "../context";

export interface ProviderLink {
  id: string;
  name: string;
  icon: string;
  href: string;
}

/** Providers to show on the sign-in and register pages for this language and localisation, with their /api/auth/opa links. */
export async function providersForPage(_ctx: AppContext, _opts: { lang: string; localization: string; redirect?: string | null; origin?: string | null }): Promise<ProviderLink[]> {
  return [];
}
