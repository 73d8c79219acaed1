// The ONE payment form (issue 12 §1, spec 2 §2 "Payment form (shared)", ADR 035): method buttons, the
// bank-transfer box, purchase order number, the Brazil choice, card and Allpago entries, the billing or invoice
// address, CPF/CNPJ, terms, and a hidden idempotency key. Used by the wizard's payment step and the pay-many
// page (later prepay and digital purchases). It posts plain fields to its page's action, which parses them with
// the form's one schema (app/common/payments/form-schema.ts); method-dependent sections show by CSS `:has()`, so JavaScript is not needed.
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "#app/lib/translate";
import { BRAZIL_CHOICES, INSTALLMENTS_MAX, PAYMENT_METHOD, PURCHASE_ORDER_MAX, methodFacts } from "#common/payments/methods";
import { PAYMENT_FIELD as F, type PaymentFormData, type PaymentReply } from "#common/payments/fields";
import { TAX_TYPES } from "#common/payments/tax-id";
import { currencyDigits, formatMoney, majorText, USD } from "#common/money";
import { CardFields } from "./CardFields";
import { VoucherPanel } from "./VoucherPanel";
import { AllpagoWidget } from "./AllpagoWidget";
import { BalancePanel } from "./BalancePanel";
import { FapiaoFields, fapiaoMethodNames } from "./FapiaoFields";
import { useLang } from "#app/lib/use-lang";

/** Minor units as the Allpago checkout takes them: "500.00" (the currency's own decimals). */
const majorAmount = (minor: number, currencyIso: string): string => majorText(minor, currencyDigits(currencyIso));
import { AddressFields } from "./AddressFields";
import { SelectInput, TextInput, showFor, useFieldError, type FieldState } from "./fields";
import { ErrorSummary } from "#app/components/form";
import { listedField, paymentFieldId, paymentSummary } from "./summary";

export const PAYMENT_FORM_ID = "payment-form";

export interface PaymentFormProps {
  data: PaymentFormData;
  /** The action's answer after a refused submit (values kept, errors shown). */
  reply: PaymentReply | null;
  submitLabel: string;
  /** Extra hidden fields of the page (the wizard's `orderFormId`). */
  hidden?: Record<string, string>;
  /** Choose the first method at first (the wizard); the pay-many page waits for the researcher's choice. */
  preselect?: boolean;
  /** The order's voucher entry (its own form, rendered after this one). */
  voucher?: { formId: string; appliedCode: string | null };
  /** The page forbids paying (a quote-only order): the submit stays disabled. */
  blocked?: boolean;
  /** Content before the submit button (the wizard's order peek and back link). */
  children?: ReactNode;
  /** Rendered beside the form; its button joins the form by `form={PAYMENT_FORM_ID}` (the pay-many summary). */
  aside?: (s: { busy: boolean; canSubmit: boolean }) => ReactNode;
}

export function PaymentForm({ data, reply, submitLabel, hidden, preselect, voucher, blocked, children, aside }: PaymentFormProps) {
  const { t } = useTranslation("payment");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.has(F.idempotencyKey) === true;
  const ids = data.methods.filter((m) => !m.disabled).map((m) => m.id);
  const posted = reply?.values[F.method];
  // The wizard starts on the first method that works without JavaScript (card entry needs it).
  const first = ids.find((id) => !methodFacts(id).needsScript) ?? ids[0] ?? null;
  // A fapiao was asked for with a method that cannot issue one: the method is shown cleared (issue 13 §4).
  const fapiaoClears = reply?.fieldErrors[F.method] === "fapiao:errors.method-not-fapiao";
  const initial = fapiaoClears
    ? null
    : posted && ids.includes(Number(posted))
      ? Number(posted)
      : preselect || ids.length === 1
        ? first
        : null;
  const [methodId, setMethodId] = useState<number | null>(initial);
  const [installments, setInstallments] = useState(Number(reply?.values[F.installments] ?? 1) || 1);
  // Without JavaScript the button stays enabled (the server answers 'Please choose a payment method.').
  const [hydrated, setHydrated] = useState(false);
  const methodsBox = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    // A method clicked before the page's script ran is checked in the page but not yet in this state: take it
    // from the page, or the button would stay disabled over a visibly chosen method.
    const checked = methodsBox.current?.querySelector<HTMLInputElement>(`input[name="${F.method}"]:checked:not(:disabled)`);
    if (checked) setMethodId(Number(checked.value));
    setHydrated(true);
  }, []);
  const canSubmit = !blocked && !busy && ids.length > 0 && (!hydrated || methodId !== null);
  const state: FieldState = { errors: reply?.fieldErrors ?? {}, values: reply?.values ?? null };
  const facts = methodId === null ? null : methodFacts(methodId);
  const lang = useLang();
  const fieldMethodError = useFieldError(state, F.method);
  // The refusal of 'yes' with a method that cannot issue a fapiao names the offered methods that can.
  const methodError = fapiaoClears
    ? t("fapiao:errors.method-not-fapiao", { methods: fapiaoMethodNames(ids, lang, (id) => t(`methods.${id}`)) })
    : fieldMethodError;
  const termsError = useFieldError(state, F.terms, data.purpose);
  const brazilError = useFieldError(state, F.brazilChoice);
  const v = (name: string) => reply?.values[name];
  const formError = reply?.error
    ? reply.error === "payment-declined"
      ? // A provider's refusal: its reason, in the page's language (#common/payments/declines).
        t(`declines.${reply.errorDetail ?? "failed"}`, { defaultValue: t("declines.failed") })
      : reply.errorDetail
        ? t("errors.payment-save-error", {
            // A provider's code we know is said in the page's language; its own text is shown as it came.
            error: /^[a-z0-9-]+$/.test(reply.errorDetail)
              ? t(`errors.${reply.errorDetail}`, { defaultValue: reply.errorDetail })
              : reply.errorDetail,
          })
        : t(`errors.${reply.error}`, {
            defaultValue: t(`order:payment.errors.${reply.error}`, { defaultValue: t("errors.payment-failed") }),
          })
    : null;

  // A refused field this form shows no widget for (a post it did not make: 'yes' to a fapiao not asked here, a
  // balance not offered, a mangled tick) is said above the form, so that no refusal is silent.
  const unshown = Object.entries(state.errors)
    .filter(([name]) => !errorShownBeside(name, data) || !listedField(name))
    .map(([, key]) => t(key));
  // The refused fields at the top, each linking to its control (issue 22 item 6, as the registration form does).
  const summary = paymentSummary(state.errors, (name) => errorShownBeside(name, data), t);

  const form = (
    <Form method="post" id={PAYMENT_FORM_ID} className="payment-form stack" replace>
      <ErrorSummary id="payment-error-summary" entries={summary} />
      {formError ? (
        <p className="alert alert-danger" role="alert">
          {formError}
        </p>
      ) : null}
      {unshown.length ? (
        <ul className="alert alert-danger" role="alert">
          {unshown.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <input type="hidden" name={F.idempotencyKey} value={v(F.idempotencyKey) || data.idempotencyKey} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}

      {/* Prepayment and credits (issue 13): spent first, the methods below pay what is left. */}
      {data.balances ? <BalancePanel panel={data.balances} values={reply?.values ?? null} errors={state.errors} /> : null}

      {data.brazilChoice ? (
        <fieldset className={`pm-brazil${brazilError ? " field-invalid" : ""}`}>
          <legend>{t("brazil.legend")}</legend>
          {BRAZIL_CHOICES.map((c, index) => (
            <label key={c} className="checkbox">
              <input
                type="radio"
                id={index === 0 ? paymentFieldId(F.brazilChoice) : undefined}
                name={F.brazilChoice}
                value={c}
                className={`pm-brazil-${c}`}
                defaultChecked={(v(F.brazilChoice) ?? "no-requirements") === c}
              />
              <span>
                {c === "fapesp" && typeof data.fapespTotal === "number"
                  ? t("brazil.fapespAmount", { amount: formatMoney(data.fapespTotal, USD) })
                  : t(`brazil.${c}`)}
              </span>
            </label>
          ))}
          {brazilError ? <p className="field-error">{brazilError}</p> : null}
          <TextInput name={F.fapespProcessNumber} label={t("brazil.fapespNumber")} state={state} maxLength={40} className="pm-fapesp" />
        </fieldset>
      ) : null}

      <fieldset ref={methodsBox} className={`pm-methods-box${methodError ? " field-invalid" : ""}`}>
        <legend>{t("method.legend")}</legend>
        <div className="pm-methods">
          {data.methods.map((m, index) => {
            const f = methodFacts(m.id);
            const kind = [
              f.brazilOnly ? "pm-brazil-only" : "",
              f.supportsFapesp ? "pm-fapesp-ok" : "",
              f.supportsFapiao ? "pm-fapiao-ok" : "",
            ].join(" ");
            return (
              <label key={m.id} className={`pm-method ${kind}`}>
                <input
                  type="radio"
                  id={index === 0 ? paymentFieldId(F.method) : undefined}
                  name={F.method}
                  value={m.id}
                  className={`pm-radio pm-radio-${m.id}`}
                  defaultChecked={initial === m.id}
                  disabled={m.disabled}
                  onChange={() => setMethodId(m.id)}
                  aria-invalid={methodError ? true : undefined}
                  aria-describedby={methodError ? "pf-method-error" : undefined}
                />
                <span className="pm-method-name">{t(`methods.${m.id}`)}</span>
                {m.sandbox ? <span className="badge pm-test-mode">{t("method.testMode")}</span> : null}
                {/* Shown but not selectable (the prepay form's bank transfer, spec 2 §6): say so, not only by colour. */}
                {m.disabled ? <span className="pm-unavailable">{t("method.unavailable")}</span> : null}
              </label>
            );
          })}
        </div>
        {methodError ? (
          <p className="field-error" id="pf-method-error" role="alert">
            {methodError}
          </p>
        ) : null}
      </fieldset>

      <p className={`alert alert-info ${showFor(ids, (_, id) => id === PAYMENT_METHOD.free)}`}>{t("method.freeInfo")}</p>
      <p className={`alert alert-info ${showFor(ids, (f) => f.billedByInvoice)}`}>{t("method.bankTransferInfo")}</p>
      <div className={showFor(ids, (_, id) => id === PAYMENT_METHOD.bankTransfer)}>
        <TextInput name={F.purchaseOrder} label={t("method.purchaseOrder")} state={state} maxLength={PURCHASE_ORDER_MAX} />
      </div>

      {ids.some((id) => methodFacts(id).provider === "card") ? (
        <div className={`pm-card ${showFor(ids, (f) => f.provider === "card")}`} id={paymentFieldId(F.nonce)} tabIndex={-1}>
          <CardFields noScriptText={t("card.noScript")} />
          <SelectInput name={F.currency} label={t("card.currency")} state={state} defaultValue={v(F.currency) ?? defaultCurrency(data)}>
            {data.currencies.map((c) => (
              <option key={c.isoCode} value={c.isoCode}>
                {c.isoCode} — {c.shortName}
              </option>
            ))}
          </SelectInput>
        </div>
      ) : null}

      <div className={showFor(ids, (f) => f.installments)}>
        <SelectInput
          name={F.installments}
          label={t("allpago.installments")}
          state={state}
          defaultValue={v(F.installments) ?? "1"}
          onChange={(e) => setInstallments(Number(e.currentTarget.value) || 1)}
        >
          {Array.from({ length: INSTALLMENTS_MAX }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1}×
            </option>
          ))}
        </SelectInput>
        {/* The Allpago card widget (its own iframe, our origin in the sandbox) gives the checkout this form posts;
            it needs JavaScript like any card entry, and is only loaded once the method is chosen. */}
        {!hydrated || (methodId !== null && methodFacts(methodId).installments) ? (
          <AllpagoWidget
            name={F.checkoutId}
            receiptCode={data.idempotencyKey}
            amount={majorAmount(data.total, data.currencyIso)}
            currency={data.currencyIso}
            installments={installments}
            noScriptText={t("allpago.noScript")}
          />
        ) : null}
      </div>

      <div className={showFor(ids, (f) => f.requiresTaxId)}>
        <div className="form-grid">
          <SelectInput name={F.taxType} label={t("tax.type")} state={state} defaultValue={v(F.taxType) ?? ""}>
            <option value="">{t("tax.chooseType")}</option>
            {TAX_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectInput>
          <TextInput name={F.taxNumber} label={t("tax.number")} state={state} maxLength={20} inputMode="text" autoComplete="off" />
        </div>
      </div>

      <AddressFields form="address" data={data} state={state} brazilOnlyChosen={Boolean(facts?.brazilOnly)} />

      <div className={showFor(ids, (f) => f.address === "billing")}>
        <label className="checkbox">
          <input type="checkbox" name={F.invoiceAddressDiffers} defaultChecked={v(F.invoiceAddressDiffers) === "on"} />
          <span>{t("address.invoiceDiffers")}</span>
        </label>
        <div className="pm-invoice-block">
          <AddressFields form="invoiceAddress" data={data} state={state} brazilOnlyChosen={false} />
        </div>
      </div>

      {data.fapiao ? <FapiaoFields fapiao={data.fapiao} methodIds={ids} state={state} onMethodCleared={() => setMethodId(null)} /> : null}

      <div className={`field${termsError ? " field-invalid" : ""}`}>
        <label className="checkbox">
          <input
            type="checkbox"
            id={paymentFieldId(F.terms)}
            name={F.terms}
            aria-invalid={termsError ? true : undefined}
            aria-describedby={termsError ? "pf-terms-error" : undefined}
            defaultChecked={v(F.terms) === "on"}
          />
          <span>{t("terms.accept")}</span>
        </label>
        {termsError ? (
          <p className="field-error" id="pf-terms-error" role="alert">
            {termsError}
          </p>
        ) : null}
      </div>
      {children}
      {aside ? null : (
        <button type="submit" className="button button-primary button-large" disabled={!canSubmit} aria-busy={busy}>
          {busy ? t("submit.busy") : submitLabel}
        </button>
      )}
    </Form>
  );

  return (
    <>
      {aside ? (
        <div className="payment-layout">
          {form}
          <aside className="payment-aside">{aside({ busy, canSubmit })}</aside>
        </div>
      ) : (
        form
      )}
      {voucher ? <VoucherPanel formId={voucher.formId} appliedCode={voucher.appliedCode} voucherAvailable={data.voucherAvailable} /> : null}
    </>
  );
}

/** Whether the form shows `name`'s error beside it (the fields that may have no widget on this page). */
function errorShownBeside(name: string, data: PaymentFormData): boolean {
  if (name === F.invoiceAddressDiffers) return false;
  if (name === F.requireFapiao) return Boolean(data.fapiao);
  if (name === F.useCredits) return (data.balances?.credits ?? 0) > 0;
  if (name === F.prepayOption || name === F.prepayAmount) return (data.balances?.prepayment ?? 0) > 0;
  return true;
}

/** The card's charge currency: the amount's own when it may be chosen, else US dollars. */
function defaultCurrency(data: PaymentFormData): string {
  return data.currencies.some((c) => c.isoCode === data.currencyIso) ? data.currencyIso : "USD";
}
