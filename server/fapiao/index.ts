// Fapiao (Chinese tax invoices, issue 13 §4, ADR 042): the public face of the area.
export { orderFapiaoState, afterPaymentLocalizations } from "./availability";
export { researcherMayCancel, type FapiaoView } from "./records";
export {
  cancelFapiao,
  createStoredFapiao,
  fapiaoPdf,
  fapiaoTarget,
  fapiaosOfInvoices,
  listFapiaos,
  organizationSuggestions,
  ownFapiao,
  panelFapiaos,
  requestOrderFapiao,
  storeOrderFapiao,
  type FapiaoDocument,
  type FapiaoTarget,
  type OrganizationSuggestion,
  type PanelFapiao,
} from "./stored";
export { FAPIAO_PDF_MAX_BYTES, staffCancelFapiao, staffFapiao, staffIssueFapiao, staffListFapiaos, type StaffFapiaoRow } from "./staff";
