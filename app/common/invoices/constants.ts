// Constants of the invoice list, apart from its schema (list.ts) so that the page's components take them
// without bringing zod into the browser's bundle.

/** Invoices a page (spec 2 §9). */
export const INVOICE_PAGE_SIZE = 10;
export const INVOICE_ORDER_NUMBER_MAX = 40;
export const INVOICE_PAGE_MAX = 100_000;
export const INVOICE_FILTER_FIELDS = ["from", "to", "orderNumber"] as const;
/** Invoice numbers as the selection form sends them (checkboxes named `invoice`). */
export const INVOICE_NUMBER = /^INV\d{1,18}$/;
