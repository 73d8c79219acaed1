// Prepaid and credit balances: the ledger every prepayment and credit moves through (issue 13 §3, ADR 039).
export {
  userBalances,
  totalIn,
  depositPrepayment,
  grantCredit,
  spendOnInvoice,
  expireBalances,
  type AccountKind,
  type BalanceAccount,
  type NewCredit,
  type SpendRequest,
  type Spent,
} from "./ledger";
export { creditOverpayment, overpaymentsOf, takeBackOverpayment, type Overpayment } from "./overpayment";
