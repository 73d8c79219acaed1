// Digital editing and translation: the shapes shared by the engines (server/digital/edit, server/digital/translate),
// the domain, the API and the pages (issue 24). Field names follow spec 3 §3.
import type {
  DigitalOrderType,
  DigitalPurchaseType,
  DigitalStatus,
  EditingDisplayType,
  PackageIdentity,
  StyleOfEnglish,
  TranslationDisplayType,
  TranslationLanguage,
} from "#common/digital/constants";
import type { Readable } from "node:stream";

/** A finished document to download: streamed from the file store (ADR 078) when the response is read. */
export interface DigitalDownload {
  stream(): Readable;
  fileName: string;
  size: number;
}

// ───────────────────────── engines (pure processing; the worker calls them) ─────────────────────────

/** A paragraph of a document as the engines read and write it: its role and its plain text. */
export interface DocParagraph {
  style: "title" | "heading1" | "heading2" | "heading3" | "normal" | "listItem";
  text: string;
  /**
   * The character formatting of the text, when any part of it is formatted (a .docx's bold, italics, underline,
   * strike, superscript, subscript): consecutive pieces whose texts join to `text`. Absent: all plain.
   */
  runs?: DocTextRun[];
}

/** A piece of a paragraph's text with its character formatting (the writer keeps it outside and around changes). */
export interface DocTextRun {
  text: string;
  bold?: true;
  italics?: true;
  underline?: true;
  strike?: true;
  vertAlign?: "superscript" | "subscript";
}

/** One change the proofreader applies: in paragraph `paragraph`, text[start, end) → replacement. */
export interface ProofreadChange {
  paragraph: number;
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** Why: "spelling" | "punctuation" | "repeated-word" | "word-choice" (a harper rule we agreed to apply). */
  rule: "spelling" | "punctuation" | "repeated-word" | "word-choice";
}

/** What proofreading one document produced (server/digital/edit: proofreadDocument). */
export interface ProofreadOutput {
  /** .docx with each change as a tracked revision (w:del of the original run, w:ins of the replacement). */
  tracked: Buffer;
  /** .docx with the changes applied and no revisions ("lewis version"). */
  clean: Buffer;
  changes: ProofreadChange[];
  words: number;
}

/** What translating one document produced (server/digital/translate: translateDocument). */
export interface TranslationOutput {
  docx: Buffer;
  /** "apertium" (real, offline) or "sandbox" (test mode: labelled in the UI and in the file). */
  engine: "apertium" | "sandbox";
  words: number;
}

/** A failure the engines report; the job stores `reason` and fails the item (automated-edit-failure / digital-translation-failure). */
export class DigitalEngineError extends Error {
  constructor(
    readonly reason: "unreadable" | "empty" | "too-large" | "timeout" | "engine",
    message: string,
  ) {
    super(message);
    this.name = "DigitalEngineError";
  }
}

// ───────────────────────── views (API answers and page data) ─────────────────────────

/** A digital edit (spec 3 §3). */
export interface DigitalEditView {
  identity: string;
  status: DigitalStatus;
  createdAt: string;
  fileName: string;
  styleOfEnglish: StyleOfEnglish;
  /** Changes applied, once completed. */
  changes: number | null;
  words: number | null;
  failureReason: string | null;
}

/** A digital order (spec 3 §3): a translation (type "translation") or an edit as the home area lists it. */
export interface DigitalOrderView {
  identity: string;
  type: DigitalOrderType;
  status: DigitalStatus;
  createdAt: string;
  fileName: string;
  digitalPurchaseIdentity: string | null;
  language: TranslationLanguage | null;
  /** "apertium" or "sandbox" once completed (the page says "test mode" for sandbox). */
  engine: "apertium" | "sandbox" | null;
  words: number | null;
  failureReason: string | null;
}

export interface Pagination {
  page: number;
  pageSize: number;
  total: number;
  pages: number;
}

/** A bought digital purchase (spec 3 §3 "Digital purchase" and "Purchase"). Money in minor units of `currencyIso`. */
export interface DigitalPurchaseView {
  identity: string;
  type: DigitalPurchaseType;
  /** Paid amount (minor units) and its currency. */
  price: number;
  currencyIso: string;
  /** ISO time the purchase stops being valid. */
  endsAt: string;
  startsAt: string;
  valid: boolean;
  /** Translation packages only: uses left of this purchase; null for the subscription. */
  numberOfUsesRemaining: number | null;
  allowedLanguages: TranslationLanguage[];
  receiptCode: string;
  /** Which offer it was bought from (AvailablePurchase.identity). */
  availablePurchaseIdentity: string;
  /** Invoice of the purchase (every purchase has an invoice and a receipt like any payment). */
  invoiceNumber: string | null;
}

/** An offer that can be bought (spec 3 §3 "Available purchase"/"Translation package"), priced in the user's currency. */
export interface AvailablePurchase {
  identity: "editing-annual" | PackageIdentity;
  type: DigitalPurchaseType;
  /** What it costs now (minor units, user's currency). */
  price: number;
  /** Before the discount: annual list price, or uses × single-use price. */
  fullPrice: number;
  currencyIso: string;
  /** Translation packages: uses it gives; null for the subscription. */
  numberOfUsesAvailable: number | null;
  /** Translation key of its name (digital:offers.<identity>). */
  name: string;
  allowedLanguages: TranslationLanguage[];
}

/** GET /api/digital-edit/load (spec 3 §3 "Load response"). */
export interface DigitalEditLoad {
  availableDigitalPurchases: AvailablePurchase[];
  digitalEditingPurchase: DigitalPurchaseView | null;
  digitalPurchases: DigitalPurchaseView[];
  hasDigitalEditingPurchase: boolean;
  hasUploadedDigitalEdit: boolean;
  /** The user's trial flag (uploads allowed without a subscription). */
  digitalEditingTrial: boolean;
  /** May upload now: an active subscription or the trial flag. */
  canUpload: boolean;
  displayType: EditingDisplayType;
}

/** GET /api/digital-order/load (spec 3 §3 "State"). */
export interface DigitalOrderLoad {
  availableDigitalPurchases: AvailablePurchase[];
  digitalPurchases: DigitalPurchaseView[];
  numberOfUsesAvailable: number;
  hasUploadedDigitalTranslation: boolean;
  /** Set when the last create answered digital-translations-word-count-exceeded; cleared on the next create. */
  wordCountExceeded: boolean;
  fileIdentity: string | null;
  /** Languages the user may choose (zh_CN only with its flag). */
  languages: TranslationLanguage[];
  displayType: TranslationDisplayType;
}

/** POST /api/digital-order/create answer (spec 3 §7). */
export interface DigitalOrderCreated {
  type: "translation";
  digitalOrders: DigitalOrderView[];
}
