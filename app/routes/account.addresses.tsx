import { Form, Link, useActionData, useLoaderData, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import { FormErrors, SelectField, SubmitButton, TextField } from "#app/components/form";
import { requireUser, requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { useClientValidation } from "#app/lib/client-validation";
import { localizeCountries } from "#app/lib/countries.server";
import { stateAfterCountryChange, type AddressFields } from "#common/accounts/address";
import { deleteAddress, getAddress, listAddresses, saveAddress, statesOf } from "#server/accounts/addresses";
import { listCountries } from "#server/accounts/registration";
import { invalidateUser } from "#server/accounts/account";

export const meta = titleMeta;

function parseId(id: string | undefined): number | "new" | null {
  if (id === undefined) return null;
  if (id === "new") return "new";
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Response("Not Found", { status: 404 });
  return n;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  const id = parseId(params.id);
  const t = await getFixedT(request, "account");
  if (id === null) {
    return { mode: "list" as const, title: t("addresses.title"), addresses: await listAddresses(context.app.db, session.user.id) };
  }
  const address = id === "new" ? null : await getAddress(context.app.db, session.user.id, id);
  // Another user's address (or none) is simply not found.
  if (id !== "new" && !address) throw new Response("Not Found", { status: 404 });
  const countries = localizeCountries(await listCountries(context.app.db), lang);
  const statesByCountry: Record<string, { code: string; name: string }[]> = {};
  const rows = await context.app.db
    .selectFrom("states as s")
    .innerJoin("countries as c", "c.id", "s.country_id")
    .select(["c.iso2", "s.code", "s.name"])
    .orderBy("s.name")
    .execute();
  for (const r of rows) (statesByCountry[r.iso2] ??= []).push({ code: r.code, name: r.name });
  return { mode: "edit" as const, title: t(address ? "addresses.editTitle" : "addresses.newTitle"), address, countries, statesByCountry };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "delete") {
    const id = Number(formData.get("id"));
    if (!(await deleteAddress(context.app.db, session.user.id, id))) throw new Response("Not Found", { status: 404 });
    await invalidateUser(context.app, session.user.id);
    return redirect(`/${lang}/account/addresses?deleted=1`, { status: 303 });
  }
  const id = parseId(params.id);
  if (id === null) throw new Response("Method Not Allowed", { status: 405 });
  const values = Object.fromEntries([...formData.entries()].filter(([k]) => k !== "intent").map(([k, v]) => [k, String(v)]));
  if (intent === "refresh-states") {
    // Without JavaScript the state list follows the country only after a round trip; nothing is saved.
    const states = await statesOf(context.app.db, String(values.country ?? ""));
    values.state = stateAfterCountryChange(values.state || undefined, states) ?? "";
    return Response.json({ values, fieldErrors: {} as Record<string, string[]> });
  }
  for (const k of Object.keys(values)) if (values[k] === "") delete values[k];
  const result = await saveAddress(context.app.db, session.user.id, id === "new" ? null : id, values);
  if (!result.ok) {
    if ("notFound" in result) throw new Response("Not Found", { status: 404 });
    return Response.json({ values, fieldErrors: result.fieldErrors }, { status: 400 });
  }
  await invalidateUser(context.app, session.user.id);
  return redirect(`/${lang}/account/addresses?saved=1`, { status: 303 });
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
                a.country.name,
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
              <Link to={`/${lang}/account/addresses/${a.id}`}>{t("addresses.edit")}</Link>
            </p>
            <details>
              <summary>{t("addresses.delete")}</summary>
              <Form method="post" action={`/${lang}/account/addresses`}>
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
        <Link className="button button-primary" to={`/${lang}/account/addresses/new`}>
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
        <Link to={`/${lang}/account/addresses`}>← {t("addresses.back")}</Link>
      </p>
      <h1>{t(a ? "addresses.editTitle" : "addresses.newTitle")}</h1>
      <Form method="post" {...getFormProps(form)} className="stack card">
        {/* The first submit button is the one Enter presses: saving, not the no-JS state refresh below. */}
        <button type="submit" name="intent" value="save" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        <FormErrors errors={form.errors} />
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
                {s.name}
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
