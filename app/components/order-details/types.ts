import type { OrderDetailsPage } from "#server/orders/details";
import type { ServiceDetails } from "#server/orders/service-details";

import type { InvoiceRow } from "#server/billing/invoices/list";

/** The details page's loader data as the components receive it (JSON: dates are strings). */
export type OrderDetailsData = Omit<OrderDetailsPage, never> & {
  /** The order's invoice as the invoice list shows it (its documents and action), or null (none, or hidden). */
  invoiceRow?: InvoiceRow | null;
};

/** What the edit form's action answers when it refuses a save. */
export interface EditReply {
  intent: "save";
  /** The questions of the services as posted, when they differ from the saved ones'. */
  details: ServiceDetails | null;
  fieldErrors: Record<string, string>;
  formError: string | null;
  suggestedDeadline: string | null;
  values: {
    services: string[];
    styleOfEnglish: string;
    journalName: string;
    journalUrl: string;
    answers: Record<string, string>;
  };
}
