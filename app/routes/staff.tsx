import { NavLink, Outlet } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export const handle = { i18n: ["staffops", "staffpay", "prepay", "credits", "fapiao", "digital", "home", "rewards", "referrals"] };

// The staff area: support staff find researchers, view the portal as them, and read the e-mail outbox.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  return null;
}

export default function StaffLayout() {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <div className="staff">
      <nav className="tabs" aria-label={t("staff.title")}>
        <NavLink to={paths.staff(lang)} end>
          {t("staff.researchers")}
        </NavLink>
        <NavLink to={paths.staffOrders(lang)}>{t("staffops:tabs.orders")}</NavLink>
        <NavLink to={paths.staffOutbox(lang)}>{t("staff.outbox")}</NavLink>
        <NavLink to={paths.staffSupport(lang)}>{t("staff.support")}</NavLink>
        <NavLink to={paths.staffPayments(lang)}>{t("staffpay:nav.payments")}</NavLink>
        <NavLink to={paths.staffVouchers(lang)}>{t("staffpay:nav.vouchers")}</NavLink>
        <NavLink to={paths.staffCredits(lang)}>{t("credits:staff.nav")}</NavLink>
        <NavLink to={paths.staffPrepayments(lang)}>{t("prepay:staff.nav")}</NavLink>
        <NavLink to={paths.staffFapiaos(lang)}>{t("fapiao:staff.nav")}</NavLink>
        <NavLink to={paths.staffSurveys(lang)}>{t("digital:staffSurvey.nav")}</NavLink>
        {/* Issue 25 (helper H) */}
        <NavLink to={paths.staffGroups(lang)}>{t("home:staff.nav")}</NavLink>
        {/* Issue 25 (helper R) */}
        <NavLink to={paths.staffPromotions(lang)}>{t("rewards:staff.nav")}</NavLink>
        <NavLink to={paths.staffTestimonials(lang)}>{t("referrals:staff.nav")}</NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
