// The legal entity that issues a document (issue 21 §2, ADR 052): chosen by the localisation the document is
// issued in, copied onto the document at issue (invoices.legal_entity, retainer_invoices.legal_entity) and
// printed from that copy ever after. Nothing a reader asks for (the PDF's ?localization) and no later change of
// the `invoiceCompanyDetails` config re-issues a document under another company or tax identifier.
import type { AppContext } from "../../context";

export interface LegalEntity {
  /** The `invoiceCompanyDetails` key it was taken from (a localisation identity, or "default"). */
  identity: string;
  name: string;
  address: string[];
  email: string;
  phone: string;
  taxId: string;
}

/** The entity that issues a document in `localization` now (at issue time; printed documents use their copy). */
export async function issuingEntity(app: AppContext, localization: string | null): Promise<LegalEntity> {
  const { config } = await app.config.snapshot();
  const all = config.invoiceCompanyDetails;
  const identity = localization && all[localization] ? localization : all.default ? "default" : (Object.keys(all)[0] ?? "default");
  const c = all[identity];
  if (!c) return { identity, name: config.companyShortName, address: [], email: "", phone: "", taxId: "" };
  return { identity, name: c.name, address: [...c.address], email: c.email, phone: c.phone, taxId: c.taxId };
}

/** The stored copy as read from a jsonb column (a string on some drivers), or null for none. */
export function storedEntity(value: unknown): LegalEntity | null {
  const v = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (!v || typeof v !== "object" || typeof (v as LegalEntity).name !== "string") return null;
  const e = v as Partial<LegalEntity>;
  return {
    identity: String(e.identity ?? ""),
    name: String(e.name),
    address: Array.isArray(e.address) ? e.address.map(String) : [],
    email: String(e.email ?? ""),
    phone: String(e.phone ?? ""),
    taxId: String(e.taxId ?? ""),
  };
}

/** The entity of an issued document: its stored copy, else (a row the back-fill could not reach) its localisation's. */
export async function entityOfDocument(app: AppContext, stored: unknown, localization: string | null): Promise<LegalEntity> {
  return storedEntity(stored) ?? issuingEntity(app, localization);
}

/** The heading the PDF prints: the name, then the address, e-mail, phone and tax identifier lines. */
export function entityHeading(e: LegalEntity): { name: string; lines: string[] } {
  return { name: e.name, lines: [...e.address, e.email, e.phone, e.taxId].filter(Boolean) };
}
