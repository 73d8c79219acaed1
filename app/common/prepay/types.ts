// What the prepay pages and GET /api/prepay/load show of a prepayment and a credit (spec 2 §3).
import type { CurrencyFormat } from "#common/format";

export interface PrepaymentView {
  retainerInvoiceNumber: string;
  status: "unpaid" | "paid";
  currency: CurrencyFormat;
  /** The retainer invoice's amount (minor units). */
  totalAmount: number;
  /** What can still be spent of the prepaid balance (0 until paid). */
  availablePrepaymentAmount: number;
  /** What is still owed on the retainer invoice itself. */
  balance: number;
  formattedDate: string;
  transactionDate: string;
  expirationDate: string | null;
  /** A pending boleto of this prepayment (its PDF), or null. */
  boletoUrl: string | null;
  pdfUrl: string;
  /** A fapiao may be asked for (China, the feature on, not a US number, paid); else the list shows '--'. */
  fapiaoAvailable: boolean;
  /** The live fapiao asked for it (its status), or null. */
  fapiao: { id: number; status: string } | null;
  /** The newest payment received for it. */
  payment: { id: string; amount: number } | null;
  /** The method it was issued for (bank transfer shows the bank's details). */
  methodId: number | null;
}

export interface CreditView {
  referenceNumber: string;
  currency: CurrencyFormat;
  totalAmount: number;
  balance: number;
  formattedDate: string;
  transactionDate: string;
  formattedExpirationDate: string;
}
