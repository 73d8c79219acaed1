// Pure rules of referrals (issue 25 item 3): when two accounts look like one person, and how a colleague's name is
// masked on the referrer's list. No database, no I/O (tests/unit/referrals-rules.test.ts).
import { personName } from "#common/names";

/** An address as the payment form and the address book store it (the fields that place it). */
export interface AddressLike {
  address1?: unknown;
  address2?: unknown;
  city?: unknown;
  zip?: unknown;
  countryId?: unknown;
  country_id?: unknown;
}

const part = (v: unknown) =>
  typeof v === "string" || typeof v === "number"
    ? String(v)
        .normalize("NFKC")
        .toLowerCase()
        .replace(/[\s.,#'"\-/\\()]+/g, "")
    : "";

/**
 * One string per place: lines, city, postal code and country, lower-cased, without spaces and punctuation
 * ("12 Main St., Apt 4" and "12 main st apt 4" are one address). Null when there is no first line to compare.
 */
export function normalizedAddress(a: AddressLike): string | null {
  const line = part(a.address1);
  if (!line) return null;
  return [line, part(a.address2), part(a.city), part(a.zip), part(a.countryId ?? a.country_id)].join("|");
}

/** Why a referral between two accounts is refused, or null: a shared payment instrument or billing address. */
export function samePersonReason(
  referrer: { instruments: string[]; addresses: AddressLike[] },
  referred: { instruments: string[]; addresses: AddressLike[] },
): "same-payment-instrument" | "same-billing-address" | null {
  const instruments = new Set(referrer.instruments);
  if (referred.instruments.some((i) => instruments.has(i))) return "same-payment-instrument";
  const places = new Set(referrer.addresses.map(normalizedAddress).filter((a): a is string => a !== null));
  if (
    referred.addresses.some((a) => {
      const n = normalizedAddress(a);
      return n !== null && places.has(n);
    })
  )
    return "same-billing-address";
  return null;
}

/** The mailbox of an address with dots and a "+tag" removed (gmail style), lower-cased, with its domain. */
export function canonicalEmail(email: string): string {
  const [local = "", domain = ""] = email.trim().toLowerCase().split("@");
  return `${local.split("+")[0].replace(/\./g, "")}@${domain}`;
}

/** A colleague as the referrer sees them: first name and the last name's initial ("Maria S."), or a masked mailbox. */
export function maskedName(firstName: string | null, lastName: string | null, email: string): string {
  const first = (firstName ?? "").trim();
  const last = (lastName ?? "").trim();
  // A name in Chinese or Japanese script is family name first (app/common/names.ts): the family name and a star per
  // character of the given name ("李**" for 李小明), as such names are masked there; a Latin name "Maria S.".
  if (first && last && personName(first, last) === `${last}${first}`) return `${last}${"*".repeat([...first].length)}`;
  if (first) return last ? `${first} ${[...last][0]}.` : first;
  const [local = "", domain = ""] = email.split("@");
  return `${[...local][0] ?? ""}***@${domain}`;
}
