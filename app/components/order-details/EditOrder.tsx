import { useState } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import type { EditReply, OrderDetailsData } from "./types";

type Edit = NonNullable<OrderDetailsData["edit"]>;

/** The values the edit form starts from: what was just posted (a refused save), else the order as saved. */
export function editValues(data: OrderDetailsData, reply: EditReply | undefined): EditReply["values"] {
  if (reply) return reply.values;
  const edit = data.edit!;
  return {
    services: edit.options.filter((o) => o.onOrder).map((o) => o.serviceSlug),
    styleOfEnglish: data.order.styleOfEnglish ?? "",
    journalName: data.order.journal?.name ?? "",
    journalUrl: data.order.journal?.url ?? "",
    answers: edit.answers,
  };
}

function FieldError({ id, error }: { id: string; error?: string }) {
  const { t } = useTranslation("details");
  return error ? (
    <p className="field-error" id={`${id}-error`} role="alert">
      {t(error)}
    </p>
  ) : null;
}

/** Sidebar part of edit mode: target journal and style of English (spec 2 §2). */
export function EditSidebarFields({ values, errors }: { values: EditReply["values"]; errors: Record<string, string> }) {
  const { t } = useTranslation("details");
  return (
    <section className="stack">
      <fieldset className={`field${errors.styleOfEnglish ? " field-invalid" : ""}`}>
        <legend className="field-label">{t("edit.styleOfEnglish")}</legend>
        {(["british", "american"] as const).map((s) => (
          <label key={s} className="checkbox">
            <input
              type="radio"
              name="styleOfEnglish"
              value={s}
              defaultChecked={values.styleOfEnglish === s}
              aria-describedby={errors.styleOfEnglish ? "styleOfEnglish-error" : undefined}
            />
            {t(`edit.styles.${s}`)}
          </label>
        ))}
        <FieldError id="styleOfEnglish" error={errors.styleOfEnglish} />
      </fieldset>
      <div className={`field${errors.journalName ? " field-invalid" : ""}`}>
        <label htmlFor="journalName">{t("edit.journalName")}</label>
        <input
          id="journalName"
          name="journalName"
          defaultValue={values.journalName}
          maxLength={255}
          aria-invalid={errors.journalName ? true : undefined}
          aria-describedby={errors.journalName ? "journalName-error" : undefined}
        />
        <FieldError id="journalName" error={errors.journalName} />
      </div>
      <div className={`field${errors.journalUrl ? " field-invalid" : ""}`}>
        <label htmlFor="journalUrl">{t("edit.journalUrl")}</label>
        <input
          id="journalUrl"
          name="journalUrl"
          type="url"
          defaultValue={values.journalUrl}
          maxLength={255}
          placeholder="https://"
          aria-invalid={errors.journalUrl ? true : undefined}
          aria-describedby={errors.journalUrl ? "journalUrl-error" : "journalUrl-hint"}
        />
        <p className="field-hint" id="journalUrl-hint">
          {t("edit.journalUrlHint")}
        </p>
        <FieldError id="journalUrl" error={errors.journalUrl} />
      </div>
    </section>
  );
}

function Questions({ details, values, errors }: { details: Edit["details"]; values: EditReply["values"]; errors: Record<string, string> }) {
  const { t } = useTranslation("details");
  const [answers, setAnswers] = useState(values.answers);
  const shown = new Set(
    details.questions.flatMap((q) => q.choices.filter((c) => c.label === answers[q.label]).flatMap((c) => c.followUpQuestionIdentities)),
  );
  const followUps = details.questionsRequiringPreviousSelection.filter((q) => shown.has(q.label));
  if (!details.questions.length) return null;
  return (
    <section className="card stack">
      <h2>{t("edit.questions")}</h2>
      {[...details.questions, ...followUps].map((q) => {
        const name = `answers.${q.label}`;
        const error = errors[name];
        return q.type === "radio" ? (
          <fieldset key={q.label} className={`field${error ? " field-invalid" : ""}`}>
            <legend className="field-label">{t(`questions.${q.label}.text`)}</legend>
            {q.choices.map((c) => (
              <label key={c.label} className="checkbox">
                <input
                  type="radio"
                  name={name}
                  value={c.label}
                  defaultChecked={answers[q.label] === c.label}
                  onChange={() => setAnswers({ ...answers, [q.label]: c.label })}
                />
                {t(`questions.${q.label}.choices.${c.label}`)}
              </label>
            ))}
            <FieldError id={`answer-${q.label}`} error={error} />
          </fieldset>
        ) : (
          <div key={q.label} className={`field${error ? " field-invalid" : ""}`}>
            <label htmlFor={`answer-${q.label}`}>{t(`questions.${q.label}.text`)}</label>
            <input
              id={`answer-${q.label}`}
              name={name}
              defaultValue={answers[q.label] ?? ""}
              maxLength={500}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `answer-${q.label}-error` : undefined}
            />
            <FieldError id={`answer-${q.label}`} error={error} />
          </div>
        );
      })}
    </section>
  );
}

/** Main part of edit mode: the services (add, remove), the services' questions, the deadline warning, Save and Cancel. */
export function EditMain({ data, reply }: { data: OrderDetailsData; reply?: EditReply }) {
  const { t } = useTranslation("details");
  const lang = useLang();
  const edit = data.edit!;
  const values = editValues(data, reply);
  const errors = reply?.fieldErrors ?? {};
  const money = (n: number) => formatMoney(n, data.order.currency);
  const when = (iso: string | null) => (iso ? formatDateTime(iso, lang, data.timeZone) : t("sidebar.deadlineByQuote"));
  return (
    <div className="stack">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="version" value={edit.version} />
      {reply?.formError ? (
        <div className="alert alert-danger" role="alert">
          {t(reply.formError)}
        </div>
      ) : null}
      {reply?.fieldErrors.deadline ? (
        <div className="alert alert-warning" role="alert" data-deadline-mismatch>
          <p>{t("edit.deadlineMismatch", { suggested: when(reply.suggestedDeadline), current: when(data.order.deadline) })}</p>
          <button type="submit" name="deadline" value={reply.suggestedDeadline ?? ""} className="button button-primary">
            {t("edit.useDeadline")}
          </button>
        </div>
      ) : null}
      <fieldset className={`card stack${errors.services ? " field-invalid" : ""}`}>
        <legend>
          <h2>{t("edit.services")}</h2>
        </legend>
        <p className="field-hint">{t("edit.servicesHint")}</p>
        {edit.options.map((o) => {
          const id = `service-${o.serviceSlug}`;
          const fixed = o.onOrder && !o.canBeRemovedFromOrder;
          return (
            <label key={o.serviceSlug} className="checkbox" htmlFor={id}>
              {fixed ? <input type="hidden" name="services" value={o.serviceSlug} /> : null}
              <input
                id={id}
                type="checkbox"
                name={fixed ? undefined : "services"}
                value={o.serviceSlug}
                defaultChecked={values.services.includes(o.serviceSlug)}
                disabled={fixed}
              />
              <span>
                {t(o.nameKey)} — {o.onOrder ? money(o.price) : t("edit.addFor", { price: money(o.price) })}
                <br />
                <span className="field-hint">
                  {fixed ? `${t("edit.notRemovable")} · ` : ""}
                  {t("edit.serviceDeadline", { date: when(o.deadline) })}
                </span>
              </span>
            </label>
          );
        })}
        <FieldError id="services" error={errors.services} />
      </fieldset>
      <Questions details={reply?.details ?? edit.details} values={values} errors={errors} />
      <p className="actions">
        <button type="submit" className="button button-primary">
          {t("edit.save")}
        </button>
        <Link to={paths.orderDetails(lang, data.order.externalId)} className="button">
          {t("edit.cancel")}
        </Link>
      </p>
    </div>
  );
}
