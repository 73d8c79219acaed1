import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { PlainField } from "#app/components/form";
import { LANG_TAG } from "#common/i18n";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { adminOrderSchema, type AdminOrderForm } from "#common/staff/console";
import { consoleErrorKey } from "#common/staff/errors";
import { adminOrderChoices, createAdminOrder } from "#server/staff/admin-orders";

export const handle = { i18n: ["staffops", "order", "catalogue"] };
export const meta = titleMeta;

// /staff/orders/new: an order staff create for a researcher, with the admin options of spec 2 §6.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "staffops");
  const names = new Intl.DisplayNames([LANG_TAG[scope.lang]], { type: "language" });
  const choices = await adminOrderChoices(scope);
  return {
    title: t("newOrder.title"),
    email: new URL(request.url).searchParams.get("email")?.slice(0, 254) ?? "",
    ...choices,
    languages: choices.languages.map((l) => ({ id: l.id, name: names.of(l.code) ?? l.code })),
  };
}

interface ActionData {
  error?: string;
  fieldErrors: Record<string, string>;
  values: Partial<AdminOrderForm>;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const submission = await parseForm<AdminOrderForm>(request, adminOrderSchema);
  if (submission.status !== "success")
    return Response.json({ error: "staffops:errors.bad-form", fieldErrors: {}, values: {} } satisfies ActionData, { status: 400 });
  const r = await createAdminOrder(scope, submission.value);
  if (!r.ok) {
    const data: ActionData = {
      error: Object.keys(r.fieldErrors).length ? "staffops:errors.check-form" : consoleErrorKey(r.error),
      fieldErrors: r.fieldErrors,
      values: submission.value,
    };
    return Response.json(data, { status: errorStatus(r.error) });
  }
  return redirect(`${paths.staffOrder(scope.lang, r.value.externalId)}?done=created`, 303);
}

export default function StaffNewOrder() {
  const { email, services, languages, areas, currencies } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("staffops");
  const lang = useLang();
  const v = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const chosen = new Set(typeof v.serviceSlugs === "string" ? [v.serviceSlugs] : (v.serviceSlugs ?? []));
  const field = (name: string) => ({ name, idPrefix: "new", error: errors[name] ? t(errors[name]) : null });
  const error = (name: string) =>
    errors[name] ? (
      <p className="field-error" id={`new-${name}-error`}>
        {t(errors[name])}
      </p>
    ) : null;
  return (
    <div className="stack">
      <p>
        <Link to={paths.staffOrders(lang)}>← {t("order.back")}</Link>
      </p>
      <h1>{t("newOrder.title")}</h1>
      <p>{t("newOrder.intro")}</p>
      {actionData?.error ? (
        <p className="alert alert-danger" role="alert">
          {t(actionData.error)}
        </p>
      ) : null}
      <Form method="post" className="card stack" noValidate>
        <div className="field-row">
          <PlainField {...field("email")} label={t("newOrder.email")}>
            {(p) => <input {...p} type="email" required defaultValue={v.email ?? email} autoComplete="off" />}
          </PlainField>
          <PlainField {...field("projectTitle")} label={t("newOrder.projectTitle")}>
            {(p) => <input {...p} type="text" required maxLength={500} defaultValue={v.projectTitle ?? ""} />}
          </PlainField>
        </div>

        <fieldset
          className={`stack field${errors.serviceSlugs ? " field-invalid" : ""}`}
          aria-describedby={errors.serviceSlugs ? "new-serviceSlugs-error" : undefined}
        >
          <legend className="field-label">{t("newOrder.services")}</legend>
          <div className="field-grid">
            {services.map((s) => (
              <label key={s.slug} className="checkbox">
                <input type="checkbox" name="serviceSlugs" value={s.slug} defaultChecked={chosen.has(s.slug)} />
                <span>{t(s.nameKey)}</span>
              </label>
            ))}
          </div>
          {error("serviceSlugs")}
        </fieldset>

        <div className="field-row">
          <PlainField {...field("wordCount")} label={t("newOrder.wordCount")}>
            {(p) => <input {...p} type="number" min={1} required defaultValue={v.wordCount ?? ""} />}
          </PlainField>
          <PlainField {...field("languageId")} label={t("newOrder.language")}>
            {(p) => (
              <select {...p} defaultValue={v.languageId ?? String(languages[0]?.id ?? "")}>
                {languages.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            )}
          </PlainField>
          <PlainField {...field("currencyIso")} label={t("newOrder.currency")}>
            {(p) => (
              <select {...p} defaultValue={v.currencyIso ?? "USD"}>
                {currencies.map((c) => (
                  <option key={c.isoCode} value={c.isoCode}>
                    {c.isoCode} — {c.name}
                  </option>
                ))}
              </select>
            )}
          </PlainField>
        </div>

        <div className="field-row">
          <PlainField {...field("areaOfStudyId")} label={t("newOrder.area")}>
            {(p) => (
              <select {...p} defaultValue={v.areaOfStudyId ?? ""}>
                <option value="">{t("newOrder.choose")}</option>
                {areas.map((a) =>
                  a.children.length ? (
                    <optgroup key={a.id} label={a.name}>
                      {a.children.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                        </option>
                      ))}
                    </optgroup>
                  ) : (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ),
                )}
              </select>
            )}
          </PlainField>
          <PlainField {...field("styleOfEnglish")} label={t("newOrder.styleOfEnglish")}>
            {(p) => (
              <select {...p} defaultValue={v.styleOfEnglish ?? "american"}>
                <option value="american">{t("newOrder.american")}</option>
                <option value="british">{t("newOrder.british")}</option>
              </select>
            )}
          </PlainField>
        </div>

        <fieldset
          className={`stack admin-options field${errors.suppressInvoiceCreation ? " field-invalid" : ""}`}
          aria-describedby={errors.suppressInvoiceCreation ? "new-suppressInvoiceCreation-error" : undefined}
        >
          <legend className="field-label">{t("newOrder.adminOptions")}</legend>
          <p className="field-hint">{t("newOrder.suppressQuestion")}</p>
          <div className="actions">
            <label className="checkbox">
              <input type="radio" name="suppressInvoiceCreation" value="no" defaultChecked={v.suppressInvoiceCreation === "no"} />
              <span>{t("newOrder.createInvoice")}</span>
            </label>
            <label className="checkbox">
              <input type="radio" name="suppressInvoiceCreation" value="yes" defaultChecked={v.suppressInvoiceCreation === "yes"} />
              <span>{t("newOrder.suppressInvoice")}</span>
            </label>
          </div>
          {error("suppressInvoiceCreation")}
          <label className="checkbox">
            <input type="checkbox" name="requireCustomerNotification" defaultChecked={Boolean(v.requireCustomerNotification)} />
            <span>{t("newOrder.notify")}</span>
          </label>
        </fieldset>

        <div className="field">
          <label htmlFor="new-note">{t("newOrder.note")}</label>
          <textarea id="new-note" name="note" rows={3} maxLength={2000} defaultValue={v.note ?? ""} />
        </div>
        <p className="field-hint">{t("newOrder.paymentHint")}</p>
        <div className="actions">
          <button type="submit" className="button button-primary">
            {t("newOrder.submit")}
          </button>
        </div>
      </Form>
    </div>
  );
}
