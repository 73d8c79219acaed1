import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
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
  const fieldClass = (name: string) => `field${errors[name] ? " field-invalid" : ""}`;
  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true as const, "aria-describedby": `new-${name}-error` } : {});
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
          <div className={fieldClass("email")}>
            <label htmlFor="new-email">{t("newOrder.email")}</label>
            <input
              id="new-email"
              name="email"
              type="email"
              required
              defaultValue={v.email ?? email}
              autoComplete="off"
              {...invalid("email")}
            />
            {error("email")}
          </div>
          <div className={fieldClass("projectTitle")}>
            <label htmlFor="new-projectTitle">{t("newOrder.projectTitle")}</label>
            <input
              id="new-projectTitle"
              name="projectTitle"
              type="text"
              required
              maxLength={500}
              defaultValue={v.projectTitle ?? ""}
              {...invalid("projectTitle")}
            />
            {error("projectTitle")}
          </div>
        </div>

        <fieldset
          className={`stack ${fieldClass("serviceSlugs")}`}
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
          <div className={fieldClass("wordCount")}>
            <label htmlFor="new-wordCount">{t("newOrder.wordCount")}</label>
            <input
              id="new-wordCount"
              name="wordCount"
              type="number"
              min={1}
              required
              defaultValue={v.wordCount ?? ""}
              {...invalid("wordCount")}
            />
            {error("wordCount")}
          </div>
          <div className={fieldClass("languageId")}>
            <label htmlFor="new-languageId">{t("newOrder.language")}</label>
            <select
              id="new-languageId"
              name="languageId"
              defaultValue={v.languageId ?? String(languages[0]?.id ?? "")}
              {...invalid("languageId")}
            >
              {languages.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
            {error("languageId")}
          </div>
          <div className={fieldClass("currencyIso")}>
            <label htmlFor="new-currencyIso">{t("newOrder.currency")}</label>
            <select id="new-currencyIso" name="currencyIso" defaultValue={v.currencyIso ?? "USD"} {...invalid("currencyIso")}>
              {currencies.map((c) => (
                <option key={c.isoCode} value={c.isoCode}>
                  {c.isoCode} — {c.name}
                </option>
              ))}
            </select>
            {error("currencyIso")}
          </div>
        </div>

        <div className="field-row">
          <div className={fieldClass("areaOfStudyId")}>
            <label htmlFor="new-areaOfStudyId">{t("newOrder.area")}</label>
            <select id="new-areaOfStudyId" name="areaOfStudyId" defaultValue={v.areaOfStudyId ?? ""} {...invalid("areaOfStudyId")}>
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
            {error("areaOfStudyId")}
          </div>
          <div className={fieldClass("styleOfEnglish")}>
            <label htmlFor="new-styleOfEnglish">{t("newOrder.styleOfEnglish")}</label>
            <select
              id="new-styleOfEnglish"
              name="styleOfEnglish"
              defaultValue={v.styleOfEnglish ?? "american"}
              {...invalid("styleOfEnglish")}
            >
              <option value="american">{t("newOrder.american")}</option>
              <option value="british">{t("newOrder.british")}</option>
            </select>
            {error("styleOfEnglish")}
          </div>
        </div>

        <fieldset
          className={`stack admin-options ${fieldClass("suppressInvoiceCreation")}`}
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
