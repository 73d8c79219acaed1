// Every API endpoint table of the portal, in one list (served by http/api/router.ts, documented in docs/api.md).
// A composition root, so it lives in server/ itself: the HTTP layer loads no area (ADR 059).
import type { EndpointTable } from "./http/api/endpoint";
import { referenceApi } from "./reference/api";
import { accountsApi } from "./accounts/api";
import { authApi } from "./auth/api";
import { orderFormApi, priceQuoteApi } from "./order-form/api";
import { ordersApi } from "./orders/api";
import { deliverablesApi } from "./orders/deliverables-api";
import { certificatesApi } from "./certificates/api";
import { providerApi } from "./payments/provider-api";
import { paymentsApi } from "./payments/api";
import { orderPaymentApi } from "./orders/pay-api";
import { invoicesApi } from "./billing/invoices/api";
import { vouchersApi } from "./order-form/voucher-api";
import { prepayApi } from "./prepay/api";
import { fapiaoApi } from "./fapiao/api";
import { grammarCheckApi } from "./grammar-check/api";
import { digitalApi } from "./digital/api";
// Issue 25 (helper H): preferred groups and the home area.
import { groupsApi } from "./groups/api";
import { homeApi } from "./home/api";
// (end of helper H's imports)
// Issue 25 (helper R): loyalty and the reward history.
import { rewardsApi } from "./rewards/api";
import { referralsApi } from "./referrals/api";
import { testimonialsApi } from "./testimonials/api";

export const API_TABLES: EndpointTable[] = [
  referenceApi,
  accountsApi,
  authApi,
  orderFormApi,
  priceQuoteApi,
  ordersApi,
  deliverablesApi,
  certificatesApi,
  providerApi,
  paymentsApi,
  orderPaymentApi,
  invoicesApi,
  vouchersApi,
  prepayApi,
  fapiaoApi,
  grammarCheckApi,
  digitalApi,
  // Issue 25 (helper H)
  groupsApi,
  homeApi,
  // (end of helper H's tables)
  // Issue 25 (helper R)
  rewardsApi,
  referralsApi,
  testimonialsApi,
];
