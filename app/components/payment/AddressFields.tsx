// The payment form's address block (spec 2 §2 "billing or invoice address form", §5 "Address"): a saved address
// to choose, or one to enter. Which fields show follows the chosen method (classes from showFor: CSS, so it
// works without JavaScript); the server checks by the same method facts (server/payments/form.ts).
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/translate";
import { stateName } from "#app/lib/state-name";
import { ADDRESS_LIMITS } from "#common/payments/address";
import { addressFieldName, type AddressForm, type PaymentFormData } from "#common/payments/fields";
import { SelectInput, TextInput, showFor, type FieldState } from "./fields";

export function AddressFields({
  form,
  data,
  state,
  brazilOnlyChosen,
}: {
  form: AddressForm;
  data: PaymentFormData;
  state: FieldState;
  /** A Brazil-only method is chosen (JavaScript): the state list is Brazil's. */
  brazilOnlyChosen: boolean;
}) {
  const { t } = useTranslation("payment");
  const ids = data.methods.map((m) => m.id);
  const n = (field: string) => addressFieldName(form, field);
  const main = form === "address";
  // In the invoice-address block every field is the invoice address's; in the main one they follow the method.
  const when = (rule: Parameters<typeof showFor>[1]) => (main ? showFor(ids, rule) : "");
  const [countryId, setCountryId] = useState<string>(state.values?.[n("countryId")] ?? String(data.userCountryId ?? ""));
  const [stateCode, setStateCode] = useState<string>(state.values?.[n("state")] ?? "");
  const box = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    // A country or state chosen before the page's script ran is selected in the page but not in this state; the
    // first re-render (e.g. choosing the method) would put the old value back and the payment would be refused for
    // a state the researcher had visibly chosen. Take both from the page once, as the method radio does.
    const picked = (field: string) => box.current?.querySelector<HTMLSelectElement>(`select[name="${n(field)}"]`)?.value;
    const country = picked("countryId");
    const region = picked("state");
    if (country !== undefined) setCountryId(country);
    if (region !== undefined) setStateCode(region);
    // Once, at hydration: later changes reach the state through onChange.
  }, []);
  const shownCountry = main && brazilOnlyChosen ? String(data.brazilCountryId ?? "") : countryId;
  const country = data.countries.find((c) => String(c.id) === shownCountry);
  const saved = data.savedAddresses;

  return (
    <fieldset ref={box} className={`pm-address ${main ? showFor(ids, (f) => f.address !== "none" || f.showsName || f.requiresPhone) : ""}`}>
      <legend>
        {main ? (
          <>
            <span className={showFor(ids, (f) => f.address === "billing")}>{t("address.billing")}</span>
            <span className={showFor(ids, (f) => f.address === "invoice")}>{t("address.invoice")}</span>
            <span className={showFor(ids, (f) => f.address === "none")}>{t("address.payer")}</span>
          </>
        ) : (
          t("address.invoice")
        )}
      </legend>
      {saved.length > 0 ? (
        <SelectInput
          name={n("addressId")}
          label={t("address.saved")}
          state={state}
          className={`pm-saved ${when((f) => f.address !== "none")}`}
          defaultValue={state.values?.[n("addressId")] ?? ""}
        >
          <option value="">{t("address.enterNew")}</option>
          {saved.map((a) => (
            <option key={a.id} value={a.id}>
              {t(`address.label.${a.label}`)}: {[a.name ?? a.organization, a.address1, a.city].filter(Boolean).join(", ")}
            </option>
          ))}
        </SelectInput>
      ) : null}
      <div className="pm-manual form-grid">
        {main ? (
          <TextInput
            name={n("name")}
            label={t("address.name")}
            state={state}
            maxLength={ADDRESS_LIMITS.name}
            autoComplete="name"
            className={when((f) => f.showsName)}
          />
        ) : null}
        <TextInput
          name={n("organization")}
          label={t("address.organization")}
          state={state}
          maxLength={ADDRESS_LIMITS.organization}
          autoComplete="organization"
          className={when((f) => f.address !== "none")}
        />
        <TextInput
          name={n("address1")}
          label={t("address.address1")}
          state={state}
          maxLength={ADDRESS_LIMITS.address1}
          autoComplete="address-line1"
          className={`field-wide ${when((f) => f.address !== "none")}`}
        />
        <TextInput
          name={n("address2")}
          label={t("address.address2")}
          state={state}
          maxLength={ADDRESS_LIMITS.address2}
          autoComplete="address-line2"
          className={`field-wide ${when((f) => f.address !== "none")}`}
        />
        <TextInput
          name={n("city")}
          label={t("address.city")}
          state={state}
          maxLength={ADDRESS_LIMITS.city}
          autoComplete="address-level2"
          className={when((f) => f.address !== "none")}
        />
        {country && country.states.length > 0 ? (
          <SelectInput
            name={n("state")}
            label={t("address.state")}
            state={state}
            className={when((f) => f.address !== "none")}
            value={country.states.some((s) => s.code === stateCode) ? stateCode : ""}
            onChange={(e) => setStateCode(e.target.value)}
          >
            <option value="">{t("address.chooseState")}</option>
            {country.states.map((s) => (
              <option key={s.code} value={s.code}>
                {stateName(t, country.iso2, s)}
              </option>
            ))}
          </SelectInput>
        ) : (
          <TextInput
            name={n("state")}
            label={t("address.stateOptional")}
            state={state}
            maxLength={ADDRESS_LIMITS.state}
            className={when((f) => f.address !== "none")}
          />
        )}
        <TextInput
          name={n("zip")}
          label={t("address.zip")}
          state={state}
          maxLength={ADDRESS_LIMITS.zip}
          autoComplete="postal-code"
          className={when((f) => f.address !== "none")}
          hint={main ? <span className={showFor(ids, (f) => f.brazilOnly)}>{t("address.cepHint")}</span> : undefined}
        />
        <SelectInput
          name={n("countryId")}
          label={t("address.country")}
          state={state}
          className={when((f) => f.address !== "none" && !f.brazilOnly)}
          value={countryId}
          onChange={(e) => {
            setCountryId(e.target.value);
            // A new country's state list does not hold the old state (spec 2 §4).
            setStateCode("");
          }}
        >
          <option value="">{t("address.chooseCountry")}</option>
          {data.countries.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectInput>
        {main ? (
          <p className={`field pm-fixed-country ${showFor(ids, (f) => f.brazilOnly)}`}>
            <span className="field-label">{t("address.country")}</span>{" "}
            <strong>{data.countries.find((c) => c.id === data.brazilCountryId)?.name ?? ""}</strong>
          </p>
        ) : null}
        <TextInput
          name={n("phone")}
          label={t("address.phone")}
          state={state}
          type="tel"
          maxLength={ADDRESS_LIMITS.phoneMax}
          autoComplete="tel"
          className={when((f) => f.address !== "none" || f.requiresPhone)}
        />
        <TextInput
          name={n("vat")}
          label={t("address.vat")}
          state={state}
          maxLength={ADDRESS_LIMITS.vat}
          className={when((f) => f.address === "invoice")}
        />
      </div>
    </fieldset>
  );
}
