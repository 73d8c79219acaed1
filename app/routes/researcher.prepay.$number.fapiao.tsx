import { useLoaderData } from "@remix-run/react";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { paths } from "#common/paths";
import { fapiaoPageAction, fapiaoPageLoader, type FapiaoPageKind } from "#app/lib/fapiao-page.server";
import { FapiaoPage, type FapiaoPageData } from "#app/components/fapiao/FapiaoPage";

export const meta = titleMeta;
export const handle = { i18n: ["fapiao"] };

// /researcher/prepay/{retainerInvoiceNumber}/fapiao (spec 2 §2 "Prepay", issue 13 §4): a fapiao for a paid
// prepayment; back to the prepay page, which shows the notice of ?fapiao= (app/common/fapiao/notice.ts).
const kind: FapiaoPageKind = {
  document: (retainerInvoiceNumber) => ({ retainerInvoiceNumber }),
  back: (lang, notice) => paths.prepay(lang, undefined, notice),
};
export const loader = fapiaoPageLoader(kind);
export const action = fapiaoPageAction(kind);

export default function PrepayFapiao() {
  const data = useLoaderData<typeof loader>() as FapiaoPageData;
  const { t } = useTranslation("fapiao");
  return (
    <FapiaoPage
      data={data}
      heading={t("page.headingNumber", { number: data.number })}
      viewHeading={t("page.viewHeadingNumber", { number: data.number })}
    />
  );
}
