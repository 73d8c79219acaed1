import { Form, Link, useActionData, useLoaderData, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import { stateName } from "#app/lib/state-name";
import { ErrorSummary, FormErrors, SelectField, SubmitButton, TextField, summaryOf } from "#app/components/form";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields, readFormData } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { countryName } from "#common/format";
import { conformErrors } from "#common/result";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { useClientValidation } from "#app/lib/client-validation";
import { localizeCountries } from "#app/lib/countries.server";
import { addressSchema, type AddressFields, type AddressInput } from "#common/accounts/address";
import { stateAfterCountryChange } from "#common/accounts/address-state";
import { addressFormPage, countryStates, deleteAddress, myAddresses, saveAddress } from "#server/accounts/addresses";
import { serialIdOf } from "#common/integers";

export const meta = titleMeta;

function parseId(id: string | undefined): number | "new" | null {
  if (id === undefined) return null;
  if (id === "new") return "new";
  // Bounded to the serial column (ADR 044): 9999999999 is no address, not a query PostgreSQL refuses.
  const n = /^\d+$/.test(id) ? serialIdOf(id) : null;
  if (n === null) throw new Response("Not Found", { status: 404 });
  return n;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const id = parseId(params.id);
  const t = await getFixedT(request, "account");
  if (id === null) return { mode: "list" as const, title: t("addresses.title"), addresses: await myAddresses(scope) };
  const page = await addressFormPage(scope, id);
  // Another user's address (or none) is simply not found.
  if (!page.ok) throw new Response("Not Found", { status: 404 });
  const { address, countries, statesByCountry } = page.value;
  const title = t(address ? "addresses.editTitle" : "addresses.newTitle");
  return { mode: "edit" as const, title, address, countries: localizeCountries(countries, scope.lang), statesByCountry };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === "delete") {
    const r = await deleteAddress(scope, Number(formData.get("id")));
    if (!r.ok) throw new Response("Not Found", { status: 404 });
    return redirect(paths.addresses(scope.lang, { deleted: 1 }), { status: 303 });
  }
  const id = parseId(params.id);
  if (id === null) throw new Response("Method Not Allowed", { status: 405 });
  const values = Object.fromEntries([...formData.entries()].filter(([k]) => k !== "intent").map(([k, v]) => [k, String(v)]));
  if (intent === "refresh-states") {
    // Without JavaScript the state list follows the country only after a round trip; nothing is saved.
    const states = await countryStates(scope, String(values.country ?? ""));
    values.state = stateAfterCountryChange(values.state || undefined, states) ?? "";
    return Response.json({ values, fieldErrors: {} as Record<string, string[]> });
  }
  for (const k of Object.keys(values)) if (values[k] === "") delete values[k];
  const submission = parseFields<AddressInput>(values, addressSchema);
  if (submission.status !== "success") return Response.json({ values, fieldErrors: submissionErrors(submission.error) }, { status: 400 });
  const result = await saveAddress(scope, id === "new" ? null : id, submission.value);
  if (!result.ok) {
    if (result.error === "not-found") throw new Response("Not Found", { status: 404 });
    return Response.json({ values, fieldErrors: conformErrors(result.fieldErrors) }, { status: 400 });
  }
  return redirect(paths.addresses(scope.lang, { saved: 1 }), { status: 303 });
}

/** conform's field errors without the empty entries it may carry. */
function submissionErrors(error: Record<string, string[] | null> | null | undefined): Record<string, string[]> {
  return Object.fromEntries(Object.entries(error ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1]) && e[1].length > 0));
}

export default function Addresses() {
  const data = useLoaderData<typeof loader>();
  return data.mode === "list" ? <AddressList addresses={data.addresses} /> : <AddressForm data={data} />;
}

type ListData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { mode: "list" }>;
type EditData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { mode: "edit" }>;

function AddressList({ addresses }: { addresses: ListData["addresses"] }) {
  const { t } = useTranslation("account");
  const lang = useLang();
  const [params] = useSearchParams();
  return (
    <div className="stack">
      <h1>{t("addresses.title")}</h1>
      {params.get("saved") ? (
        <p className="alert alert-success" role="status">
          {t("addresses.saved")}
        </p>
      ) : null}
      {params.get("deleted") ? (
        <p className="alert alert-success" role="status">
          {t("addresses.deleted")}
        </p>
      ) : null}
      {addresses.length === 0 ? <p>{t("addresses.empty")}</p> : null}
      <ul className="cards">
        {addresses.map((a) => (
          <li key={a.id} className="card address-card" data-address-id={a.id}>
            <p className="badge">{t(`address.labels.${a.label}`)}</p>
            <address>
              {[
                a.name,
                a.organization,
                a.address1,
                a.address2,
                [a.city, a.stateName ?? a.state, a.zip].filter(Boolean).join(", "),
                countryName(a.country.value, lang, a.country.name),
                a.phone,
              ]
                .filter(Boolean)
                .map((line, i) => (
                  <span key={i}>
                    {line}
                    <br />
                  </span>
                ))}
              {a.vat ? (
                <span>
                  {t("address.vat")}: {a.vat}
                </span>
              ) : null}
            </address>
            <p className="actions">
              <Link to={paths.address(lang, a.id)}>{t("addresses.edit")}</Link>
            </p>
            <details>
              <summary>{t("addresses.delete")}</summary>
              <Form method="post" action={paths.addresses(lang)}>
                <input type="hidden" name="id" value={a.id} />
                <p>{t("addresses.confirmDelete")}</p>
                <button type="submit" name="intent" value="delete" className="button">
                  {t("addresses.confirmDeleteButton")}
                </button>
              </Form>
            </details>
          </li>
        ))}
      </ul>
      <p>
        <Link className="button button-primary" to={paths.address(lang, "new")}>
          {t("addresses.add")}
        </Link>
      </p>
    </div>
  );
}

function AddressForm({ data }: { data: EditData }) {
  const { t } = useTranslation("account");
  const lang = useLang();
  const params = useParams();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const a = data.address;
  const submitted = actionData && "values" in actionData ? actionData.values : undefined;
  const initial: AddressFields = submitted
    ? (submitted as AddressFields)
    : {
        label: a?.label ?? "billing",
        name: a?.name ?? "",
        organization: a?.organization ?? "",
        address1: a?.address1 ?? "",
        address2: a?.address2 ?? "",
        city: a?.city ?? "",
        state: a?.state ?? "",
        zip: a?.zip ?? "",
        country: a?.country.value ?? "",
        phone: a?.phone ?? "",
        vat: a?.vat ?? "",
      };
  const [form, fields] = useForm<AddressFields>({
    id: `address-${params.id}-${submitted ? JSON.stringify(submitted).length : 0}`,
    defaultValue: initial,
    lastResult:
      actionData && Object.keys(actionData.fieldErrors ?? {}).length
        ? { status: "error", initialValue: initial as never, error: actionData.fieldErrors }
        : undefined,
    onValidate: useClientValidation("address"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const country = fields.country.value ?? initial.country;
  const states = data.statesByCountry[country] ?? [];
  return (
    <div className="stack">
      <p>
        <Link to={paths.addresses(lang)}>← {t("addresses.back")}</Link>
      </p>
      <h1>{t(a ? "addresses.editTitle" : "addresses.newTitle")}</h1>
      <Form method="post" {...getFormProps(form)} className="stack card">
        {/* The first submit button is the one Enter presses: saving, not the no-JS state refresh below. */}
        <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        <ErrorSummary
          entries={summaryOf(fields, {
            label: t("address.label"),
            name: t("address.name"),
            organization: t("address.organization"),
            address1: t("address.address1"),
            address2: t("address.address2"),
            city: t("address.city"),
            country: t("address.country"),
            state: t(states.length ? "address.state" : "address.stateOptional"),
            zip: t("address.zip"),
            phone: t("address.phone"),
            vat: t("address.vatOptional"),
          })}
        />
        <FormErrors errors={form.errors} id={form.errorId} />
        <SelectField meta={fields.label} label={t("address.label")}>
          <option value="billing">{t("address.labels.billing")}</option>
          <option value="invoice">{t("address.labels.invoice")}</option>
        </SelectField>
        <TextField meta={fields.name} label={t("address.name")} autoComplete="name" required maxLength={50} />
        <TextField meta={fields.organization} label={t("address.organization")} autoComplete="organization" maxLength={60} />
        <TextField meta={fields.address1} label={t("address.address1")} autoComplete="address-line1" required maxLength={100} />
        <TextField meta={fields.address2} label={t("address.address2")} autoComplete="address-line2" maxLength={100} />
        <TextField meta={fields.city} label={t("address.city")} autoComplete="address-level2" required maxLength={40} />
        <div className="field-row">
          <SelectField
            meta={fields.country}
            label={t("address.country")}
            onChange={(e) => {
              // Spec 2 §4: the state is cleared when it is not in the new country's list.
              const next = stateAfterCountryChange(fields.state.value, data.statesByCountry[e.target.value] ?? []);
              form.update({ name: fields.state.name, value: next ?? "" });
            }}
          >
            <option value="">{t("address.chooseCountry")}</option>
            {data.countries.map((c) => (
              <option key={c.iso2} value={c.iso2}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <noscript>
            <button type="submit" name="intent" value="refresh-states" className="button button-small" formNoValidate>
              {t("address.updateStates")}
            </button>
          </noscript>
        </div>
        {states.length ? (
          <SelectField meta={fields.state} label={t("address.state")}>
            <option value="">{t("address.chooseState")}</option>
            {states.map((s) => (
              <option key={s.code} value={s.code}>
                {stateName(t, country, s)}
              </option>
            ))}
          </SelectField>
        ) : (
          <TextField meta={fields.state} label={t("address.stateOptional")} autoComplete="address-level1" maxLength={30} />
        )}
        <TextField meta={fields.zip} label={t("address.zip")} autoComplete="postal-code" maxLength={20} />
        <TextField meta={fields.phone} type="tel" label={t("address.phone")} autoComplete="tel" maxLength={20} />
        <TextField meta={fields.vat} label={t("address.vatOptional")} maxLength={30} />
        <SubmitButton busy={navigation.state === "submitting"} busyText={t("saving")} name="intent" value="save">
          {t("addresses.save")}
        </SubmitButton>
      </Form>
    </div>
  );
}
