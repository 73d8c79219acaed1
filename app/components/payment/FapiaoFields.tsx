// The order fapiao inside the shared payment form (issue 13 §4, spec 2 §2 "Payment form", §5): 'Do you need a
// fapiao?' and, with 'yes', its type, service type, organisation, taxpayer number and contact. The details and the
// narrowing of the methods to those that issue fapiao (bank transfer, Alipay, UnionPay) follow the answer by CSS
// `:has()`, so the form works without JavaScript; with it, a chosen method that cannot issue one is cleared at once.
import { useRef, useState, type ChangeEvent } from "react";
import { useLang } from "#app/lib/use-lang";
import { useTranslation } from "#app/lib/translate";
import { paths } from "#common/paths";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { methodFacts } from "#common/payments/methods";
import { PAYMENT_FIELD as F } from "#common/payments/fields";
import {
  CONTACT_PHONE_MAX,
  FAPIAO_SERVICE_TYPES,
  FAPIAO_TYPES,
  ORDER_FAPIAO_FIELD as O,
  ORGANIZATION_NAME_MAX,
  ORGANIZATION_QUERY_MIN,
  SHIPPING_ADDRESS_MAX,
} from "#common/fapiao/fields";
import { Field, SelectInput, TextInput, useFieldError, type FieldState } from "./fields";

/**
 * "Bank transfer or Alipay": the offered methods that can issue a fapiao, named in the page's language, so the
 * note and the refusal name only what this page offers (issue 21 defect 7).
 */
export function fapiaoMethodNames(ids: readonly number[], lang: SiteLang, name: (id: number) => string): string {
  const names = ids.filter((id) => methodFacts(id).supportsFapiao).map(name);
  return new Intl.ListFormat(LANG_TAG[lang], { type: "disjunction" }).format(names);
}

export function FapiaoFields({
  fapiao,
  methodIds,
  state,
  onMethodCleared,
}: {
  fapiao: { disabled: boolean };
  /** The methods offered (the form is only shown when one of them can issue a fapiao). */
  methodIds: number[];
  state: FieldState;
  onMethodCleared: () => void;
}) {
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  const methods = fapiaoMethodNames(methodIds, lang, (id) => t(`payment:methods.${id}`));
  const answerError = useFieldError(state, F.requireFapiao);
  const typeError = useFieldError(state, O.type);
  const answer = state.values?.[F.requireFapiao];
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const asked = useRef("");

  /** 'Yes': a chosen method that cannot issue a fapiao is cleared (spec 2 §5), the researcher picks another. */
  function onYes(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.currentTarget.form?.querySelector<HTMLInputElement>(`input[name="${F.method}"]:checked`);
    if (chosen && !methodFacts(Number(chosen.value)).supportsFapiao) {
      chosen.checked = false;
      onMethodCleared();
    }
  }

  /** Names earlier fapiaos were made out to (our own table, GET /api/fapiao/organizations). */
  async function suggest(e: ChangeEvent<HTMLInputElement>) {
    const name = e.currentTarget.value.trim();
    if ([...name].length < ORGANIZATION_QUERY_MIN || name === asked.current) return;
    asked.current = name;
    try {
      const res = await fetch(paths.api.fapiaoOrganizations(name), { headers: { Accept: "application/json" } });
      if (!res.ok) return;
      const d = (await res.json()) as { organizations: { name: string }[] };
      if (asked.current === name) setSuggestions(d.organizations.map((o) => o.name));
    } catch {
      /* suggestions are a convenience: the field works without them */
    }
  }

  return (
    <fieldset className={`fapiao-box${answerError ? " field-invalid" : ""}`} disabled={fapiao.disabled}>
      <legend>{t("order.question")}</legend>
      {fapiao.disabled ? <p className="field-hint">{t("order.oneInvoiceOnly")}</p> : null}
      <div className="fapiao-answer">
        <label className="checkbox">
          <input
            type="radio"
            id="pf-requireFapiao"
            name={F.requireFapiao}
            value="on"
            className="fapiao-yes"
            defaultChecked={answer === "on"}
            onChange={onYes}
          />
          <span>{t("order.yes")}</span>
        </label>
        <label className="checkbox">
          <input type="radio" name={F.requireFapiao} value="no" className="fapiao-no" defaultChecked={answer === "no"} />
          <span>{t("order.no")}</span>
        </label>
      </div>
      {answerError ? (
        <p className="field-error" role="alert">
          {answerError}
        </p>
      ) : null}
      <div className="fapiao-details stack">
        <p className="alert alert-info">{t("order.methodsNote", { methods })}</p>
        <fieldset className={`fapiao-types${typeError ? " field-invalid" : ""}`}>
          <legend>{t("form.type")}</legend>
          {FAPIAO_TYPES.map((type) => (
            <label key={type} className="checkbox">
              <input
                type="radio"
                id={type === FAPIAO_TYPES[0] ? "pf-fapiao-type" : undefined}
                name={O.type}
                value={type}
                defaultChecked={state.values?.[O.type] === type}
              />
              <span>{t(`types.${type}`)}</span>
            </label>
          ))}
          {typeError ? (
            <p className="field-error" role="alert">
              {typeError}
            </p>
          ) : null}
        </fieldset>
        <div className="form-grid">
          <SelectInput name={O.serviceType} label={t("form.serviceType")} state={state} defaultValue={state.values?.[O.serviceType] ?? ""}>
            <option value="">{t("form.choose")}</option>
            {FAPIAO_SERVICE_TYPES.map((s) => (
              <option key={s} value={s}>
                {t(`serviceTypes.${s}`)}
              </option>
            ))}
          </SelectInput>
          <TextInput
            name={O.organizationName}
            label={t("form.organizationName")}
            hint={t("form.organizationNameHint")}
            state={state}
            maxLength={ORGANIZATION_NAME_MAX}
            autoComplete="organization"
            list="fapiao-organizations"
            onChange={suggest}
          />
          <datalist id="fapiao-organizations">
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <TextInput
            name={O.taxpayerNumber}
            label={t("form.taxpayerNumber")}
            hint={t("form.taxpayerNumberHint")}
            state={state}
            maxLength={24}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
          />
          <TextInput name={O.contactEmail} label={t("form.contactEmail")} state={state} type="email" maxLength={254} autoComplete="email" />
          <TextInput
            name={O.contactPhone}
            label={t("form.contactPhone")}
            hint={t("form.contactPhoneHint")}
            state={state}
            type="tel"
            maxLength={CONTACT_PHONE_MAX + 5}
            autoComplete="tel"
          />
          <Field name={O.shippingAddress} label={t("form.shippingAddress")} state={state} className="field-wide">
            {(p) => <textarea {...p} rows={2} maxLength={SHIPPING_ADDRESS_MAX} defaultValue={state.values?.[O.shippingAddress] ?? ""} />}
          </Field>
        </div>
      </div>
    </fieldset>
  );
}
