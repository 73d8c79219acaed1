// Payment method ids for server modules (the facts of each method: app/common/payments/methods.ts; which ones a
// form offers: rules.ts).
import { PAYMENT_METHOD, type PaymentMethodId } from "#common/payments/methods";

export { PAYMENT_METHOD, type PaymentMethodId };
