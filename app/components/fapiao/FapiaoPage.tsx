// The stored-fapiao page (issue 13 §4, spec 2 §2 "Invoices" and "Prepay"): the document's live fapiao (status,
// number, PDF, cancellation while allowed) or the form to request one: type, delivery timeline, title (with
// suggestions of names used before), taxpayer number and special instructions. Plain forms: no JavaScript needed.
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { FAPIAO_DELIVERY_TIMELINES, FAPIAO_TYPES, INSTRUCTIONS_MAX, ORGANIZATION_QUERY_MIN, TITLE_MAX } from "#common/fapiao/fields";
import type { FapiaoTarget, FapiaoView } from "#server/fapiao";

export interface FapiaoPageData {
  title: string;
  number: string;
  back: string;
  target: FapiaoTarget | null;
  unavailable: string | null;
  notice: string | null;
}

interface ActionData {
  error: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string | undefined>;
}

/** `heading` asks for a fapiao ('Create Fapiao for order %s'); `viewHeading` names the one already asked for. */
export function FapiaoPage({ data, heading, viewHeading }: { data: FapiaoPageData; heading: string; viewHeading: string }) {
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  const action = useActionData<ActionData>();
  const target = data.target;
  return (
    <div className="stack fapiao-page">
      <p>
        <Link to={data.back}>← {t("page.back")}</Link>
      </p>
      <h1>{target?.live ? viewHeading : heading}</h1>
      {data.notice ? (
        <p className="alert alert-success" role="status">
          {t(data.notice)}
        </p>
      ) : null}
      {action?.error ? (
        <p className="alert alert-danger" role="alert">
          {t(action.error)}
        </p>
      ) : null}
      {data.unavailable || !target ? (
        <div className="card stack">
          <p className="alert alert-warning">{t(data.unavailable ?? "errors.failed")}</p>
          <p>
            <Link to={paths.support(lang)}>{t("page.consultSupport")}</Link>
          </p>
        </div>
      ) : target.live ? (
        <FapiaoSummary fapiao={target.live} />
      ) : !target.paid ? (
        <p className="alert alert-info">{t("errors.invoice-not-paid")}</p>
      ) : (
        <CreateForm action={action} />
      )}
    </div>
  );
}

function FapiaoSummary({ fapiao }: { fapiao: FapiaoView }) {
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="card stack" aria-labelledby="fapiao-summary-heading">
      <h2 id="fapiao-summary-heading">{t("page.requested")}</h2>
      <dl className="fapiao-summary">
        <dt>{t("list.status")}</dt>
        <dd>
          <span className={`fapiao-status fapiao-status-${fapiao.status}`}>{t(`statuses.${fapiao.status}`)}</span>
        </dd>
        <dt>{t("form.type")}</dt>
        <dd>{t(`types.${fapiao.type}`)}</dd>
        <dt>{t("form.title")}</dt>
        <dd>{fapiao.title}</dd>
        {fapiao.taxpayerNumber ? (
          <>
            <dt>{t("form.taxpayerNumber")}</dt>
            <dd>{fapiao.taxpayerNumber}</dd>
          </>
        ) : null}
        {fapiao.deliveryTimeline ? (
          <>
            <dt>{t("form.deliveryTimeline")}</dt>
            <dd>{t(`timelines.${fapiao.deliveryTimeline}`, { defaultValue: fapiao.deliveryTimeline })}</dd>
          </>
        ) : null}
        <dt>{t("list.requestedOn")}</dt>
        <dd>{formatDate(fapiao.createdAt, lang)}</dd>
        {fapiao.fapiaoNumber ? (
          <>
            <dt>{t("list.number")}</dt>
            <dd>{fapiao.fapiaoNumber}</dd>
          </>
        ) : null}
        {fapiao.issuedAt ? (
          <>
            <dt>{t("list.issuedOn")}</dt>
            <dd>{formatDate(fapiao.issuedAt, lang)}</dd>
          </>
        ) : null}
      </dl>
      {fapiao.status === "requested" ? <p className="field-hint">{t("page.requestedHint")}</p> : null}
      <div className="actions">
        {fapiao.hasPdf && fapiao.status === "issued" ? (
          <a className="button" href={paths.api.fapiaoPdf(fapiao.id)} download>
            {t("list.download")}
          </a>
        ) : null}
        {fapiao.cancellable ? (
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="id" value={fapiao.id} />
            <button type="submit" className="button" disabled={busy}>
              {t("page.cancel")}
            </button>
          </Form>
        ) : null}
      </div>
      {fapiao.status === "issued" && !fapiao.cancellable ? <p className="field-hint">{t("page.cancelWindowOver")}</p> : null}
    </section>
  );
}

function CreateForm({ action }: { action: ActionData | undefined }) {
  const { t } = useTranslation("fapiao");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const fe = action?.fieldErrors ?? {};
  const values = action?.values ?? {};
  const [suggestions, setSuggestions] = useState<{ name: string; taxpayerNumber: string | null }[]>([]);
  const asked = useRef("");
  const err = (name: string) =>
    fe[name] ? (
      <p className="field-error" id={`fp-${name}-error`} role="alert">
        {t(fe[name])}
      </p>
    ) : null;
  const aria = (name: string) => ({
    "aria-invalid": fe[name] ? (true as const) : undefined,
    "aria-describedby": fe[name] ? `fp-${name}-error` : undefined,
  });

  async function suggest(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const name = input.value.trim();
    // A suggestion picked: its taxpayer number (only ever the user's own) fills the next field when empty.
    const picked = suggestions.find((s) => s.name === name);
    const number = input.form?.elements.namedItem("taxpayerNumber") as HTMLInputElement | null;
    if (picked?.taxpayerNumber && number && !number.value) number.value = picked.taxpayerNumber;
    if ([...name].length < ORGANIZATION_QUERY_MIN || name === asked.current) return;
    asked.current = name;
    try {
      const res = await fetch(paths.api.fapiaoOrganizations(name), { headers: { Accept: "application/json" } });
      if (!res.ok) return;
      const d = (await res.json()) as { organizations: { name: string; taxpayerNumber: string | null }[] };
      if (asked.current === name) setSuggestions(d.organizations);
    } catch {
      /* a convenience only */
    }
  }

  return (
    <Form method="post" className="card stack" noValidate>
      <input type="hidden" name="intent" value="create" />
      <p className="field-hint">{t("page.intro")}</p>
      <fieldset className={`fapiao-types${fe.type ? " field-invalid" : ""}`} aria-describedby={fe.type ? "fp-type-error" : undefined}>
        <legend>{t("form.type")}</legend>
        {FAPIAO_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input type="radio" name="type" value={type} defaultChecked={values.type === type} />
            <span>{t(`types.${type}`)}</span>
          </label>
        ))}
        {err("type")}
      </fieldset>
      <div className={`field${fe.deliveryTimeline ? " field-invalid" : ""}`}>
        <label htmlFor="fp-deliveryTimeline">{t("form.deliveryTimeline")}</label>
        <select id="fp-deliveryTimeline" name="deliveryTimeline" defaultValue={values.deliveryTimeline ?? ""} {...aria("deliveryTimeline")}>
          <option value="">{t("form.choose")}</option>
          {FAPIAO_DELIVERY_TIMELINES.map((d) => (
            <option key={d} value={d}>
              {t(`timelines.${d}`)}
            </option>
          ))}
        </select>
        {err("deliveryTimeline")}
      </div>
      <div className={`field${fe.title ? " field-invalid" : ""}`}>
        <label htmlFor="fp-title">{t("form.title")}</label>
        <input
          id="fp-title"
          name="title"
          maxLength={TITLE_MAX}
          defaultValue={values.title ?? ""}
          list="fp-title-suggestions"
          autoComplete="organization"
          onChange={suggest}
          {...aria("title")}
        />
        <datalist id="fp-title-suggestions">
          {suggestions.map((s) => (
            <option key={s.name} value={s.name} />
          ))}
        </datalist>
        <p className="field-hint">{t("form.titleHint")}</p>
        {err("title")}
      </div>
      <div className={`field${fe.taxpayerNumber ? " field-invalid" : ""}`}>
        <label htmlFor="fp-taxpayerNumber">{t("form.taxpayerNumber")}</label>
        <input
          id="fp-taxpayerNumber"
          name="taxpayerNumber"
          maxLength={24}
          defaultValue={values.taxpayerNumber ?? ""}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          {...aria("taxpayerNumber")}
        />
        <p className="field-hint">{t("form.taxpayerNumberHint")}</p>
        {err("taxpayerNumber")}
      </div>
      <div className={`field${fe.specialInstructions ? " field-invalid" : ""}`}>
        <label htmlFor="fp-specialInstructions">
          {t("form.specialInstructions")} <span className="field-hint">({t("form.optional")})</span>
        </label>
        <textarea
          id="fp-specialInstructions"
          name="specialInstructions"
          rows={3}
          maxLength={INSTRUCTIONS_MAX}
          defaultValue={values.specialInstructions ?? ""}
          {...aria("specialInstructions")}
        />
        {err("specialInstructions")}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
          {busy ? t("form.busy") : t("form.submit")}
        </button>
      </div>
    </Form>
  );
}
