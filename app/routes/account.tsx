import { NavLink, Outlet } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireUser } from "#app/lib/session.server";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export const handle = { i18n: ["account", "auth"] };

// The account area: details and saved addresses, for the signed-in user only.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export default function AccountLayout() {
  const { t } = useTranslation("account");
  const lang = useLang();
  return (
    <div className="account">
      <nav className="tabs" aria-label={t("nav.label")}>
        <NavLink to={paths.account(lang)} end>
          {t("nav.details")}
        </NavLink>
        <NavLink to={paths.addresses(lang)}>{t("nav.addresses")}</NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
