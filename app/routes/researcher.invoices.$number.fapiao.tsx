import { useLoaderData } from "@remix-run/react";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { paths } from "#common/paths";
import { fapiaoPageAction, fapiaoPageLoader, type FapiaoPageKind } from "#app/lib/fapiao-page.server";
import { FapiaoPage, type FapiaoPageData } from "#app/components/fapiao/FapiaoPage";

export const meta = titleMeta;
export const handle = { i18n: ["fapiao"] };

// /researcher/invoices/{invoiceNumber}/fapiao (spec 2 §2 "Invoices", issue 13 §4): a fapiao for one paid invoice.
const kind: FapiaoPageKind = {
  document: (invoiceNumber) => ({ invoiceNumber }),
  back: (lang, notice) => paths.invoices(lang, undefined, notice),
};
export const loader = fapiaoPageLoader(kind);
export const action = fapiaoPageAction(kind);

export default function InvoiceFapiao() {
  const data = useLoaderData<typeof loader>() as FapiaoPageData;
  const { t } = useTranslation("fapiao");
  const number = data.target?.orderNumber ?? data.number;
  return <FapiaoPage data={data} heading={t("page.headingOrder", { number })} viewHeading={t("page.viewHeadingOrder", { number })} />;
}
