import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import {
  detailsSchema,
  passwordChangeSchema,
  type DetailsFields,
  type DetailsInput,
  type PasswordChangeFields,
  type PasswordChangeInput,
} from "#common/accounts/schemas";
import {
  CheckboxField,
  ErrorSummary,
  FormErrors,
  NewPasswordField,
  SelectField,
  SubmitButton,
  TextField,
  summaryOf,
} from "#app/components/form";
import { requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { useClientValidation } from "#app/lib/client-validation";
import { isSiteLang, LANG_NATIVE_NAME, SITE_LANGS } from "#common/i18n";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { pageScope } from "#app/lib/scope.server";
import { parseFields, readFormData, replyWithErrors } from "#app/lib/forms.server";
import { cookies } from "#server/http/cookies";
import { phoneMaxLength } from "#common/phone";
import { defaultPhoneCountry, localizeCountries } from "#app/lib/countries.server";
import { accountDetailsPage, changePassword, updateDetails } from "#server/accounts/account";
import { isEmailVerified, sendVerificationMail } from "#server/accounts/email-verification";

export const meta = titleMeta;
/** The action's Retry-After (too many wrong current passwords) reaches the document. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const [t, page] = await Promise.all([getFixedT(request, "account"), accountDetailsPage(scope)]);
  if (!page.user) throw redirect(paths.login(scope.lang));
  const emailVerified = await isEmailVerified(scope.app, scope.userId!);
  // A phone without its calling code starts at the researcher's own: +86 / China for a China researcher (spec 1 §3).
  const phoneCountry = page.user.countryCode.isoCode ?? defaultPhoneCountry(scope.lang, page.user.localization);
  return {
    title: t("details.title"),
    user: page.user,
    phoneCountry,
    emailVerified,
    countries: localizeCountries(page.countries, scope.lang),
  };
}

// Two forms on one page, told apart by their intent: the details and the password change.
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const formData = await readFormData(request);
  if (formData.get("intent") === "verify") {
    // The confirmation link again (issue 10 §4): limited per address like every mail.
    const sent = await sendVerificationMail(scope.app, scope.userId!, scope.lang);
    if (sent === "limited") return Response.json({ form: "verify", limited: true }, { status: 429 });
    return redirect(paths.account(scope.lang, sent === "sent" ? { saved: "verification" } : {}), { status: 303 });
  }
  if (formData.get("intent") === "password") {
    const hideFields = ["currentPassword", "newPassword"];
    const submission = parseFields<PasswordChangeInput>(formData, passwordChangeSchema);
    if (submission.status !== "success")
      return Response.json({ form: "password", result: submission.reply({ hideFields }) }, { status: 400 });
    const r = await changePassword(scope, submission.value);
    if (!r.ok) {
      // Too many wrong current passwords: 429 with Retry-After (issue 10 §7).
      const retry = r.details?.retryAfterSeconds;
      const headers: HeadersInit = typeof retry === "number" ? { "Retry-After": String(retry) } : {};
      return Response.json(
        { form: "password", result: replyWithErrors(submission, r, { hideFields }) },
        { status: errorStatus(r.error), headers },
      );
    }
    // Every other session was signed out; this browser continues on a fresh one.
    return redirect(paths.account(scope.lang, { saved: "password" }), {
      status: 303,
      headers: { "Set-Cookie": cookies.session.serialize(r.value.token, scope.secure) },
    });
  }
  const submission = parseFields<DetailsInput & { intent: "details" }>(formData, detailsSchema);
  if (submission.status !== "success") return Response.json({ form: "details", result: submission.reply() }, { status: 400 });
  const { intent: _intent, ...input } = submission.value;
  const r = await updateDetails(scope, input);
  if (!r.ok) return Response.json({ form: "details", result: replyWithErrors(submission, r) }, { status: 400 });
  // An update that leaves the account inactive ends the session (spec 1 §2 "Logout").
  if (!r.value.active)
    return redirect(paths.login(scope.lang), { status: 303, headers: { "Set-Cookie": cookies.session.clear(scope.secure) } });
  // The page follows the language just chosen.
  return redirect(paths.account(isSiteLang(r.value.language) ? r.value.language : scope.lang, { saved: "details" }), { status: 303 });
}

export default function AccountDetails() {
  const { user, countries, emailVerified, phoneCountry } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const { t } = useTranslation("account");
  const lang = useLang();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm<DetailsFields>({
    id: "details",
    lastResult: actionData?.form === "details" ? actionData.result : undefined,
    defaultValue: {
      title: user.title ?? "",
      firstName: user.firstName,
      lastName: user.lastName,
      institution: user.institution ?? "",
      orcid: user.orcid ?? "",
      secondaryEmail: user.secondaryEmail ?? "",
      countryCode: phoneCountry,
      phoneNumber: user.phoneNumber ?? "",
      country: user.country ?? "",
      language: user.language,
      optinToMarketing: user.optinToMarketing ? "on" : undefined,
    },
    onValidate: useClientValidation("details"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [pwForm, pwFields] = useForm<PasswordChangeFields>({
    id: "password",
    lastResult: actionData?.form === "password" ? actionData.result : undefined,
    onValidate: useClientValidation("password"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const codeCountry = countries.find((c) => c.iso2 === (fields.countryCode.value ?? phoneCountry));
  const saved = params.get("saved");
  return (
    <div className="stack">
      <h1>{t("details.title")}</h1>
      {saved ? (
        <p className="alert alert-success" role="status">
          {saved === "verification"
            ? t("details.verificationSent", { email: user.email })
            : t(saved === "password" ? "password.saved" : "details.saved")}
        </p>
      ) : null}
      {!emailVerified && saved !== "verification" ? (
        <div className="alert alert-warning stack" role="status">
          <p>{t("details.unverified", { email: user.email })}</p>
          {actionData?.form === "verify" ? <p role="alert">{t("details.resendLimited")}</p> : null}
          <Form method="post">
            <input type="hidden" name="intent" value="verify" />
            <button type="submit" className="button button-small">
              {t("details.resend")}
            </button>
          </Form>
        </div>
      ) : null}
      <section className="card">
        <Form method="post" {...getFormProps(form)} className="stack">
          <input type="hidden" name="intent" value="details" />
          <ErrorSummary
            id="details-error-summary"
            entries={summaryOf(fields, {
              title: t("details.salutation"),
              firstName: t("auth:register.firstName"),
              lastName: t("auth:register.lastName"),
              institution: t("auth:register.institutionOptional"),
              orcid: t("details.orcid"),
              secondaryEmail: t("details.secondaryEmail"),
              countryCode: t("auth:register.countryCode"),
              phoneNumber: t("auth:register.phone"),
              country: t("auth:register.country"),
              language: t("auth:register.language"),
            })}
          />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p>
            {t("details.email")}: <strong className="account-email">{user.email}</strong>
          </p>
          <TextField meta={fields.title} label={t("details.salutation")} autoComplete="honorific-prefix" />
          <div className="field-row">
            <TextField meta={fields.firstName} label={t("auth:register.firstName")} autoComplete="given-name" required />
            <TextField meta={fields.lastName} label={t("auth:register.lastName")} autoComplete="family-name" required />
          </div>
          <TextField meta={fields.institution} label={t("auth:register.institutionOptional")} autoComplete="organization" />
          <TextField meta={fields.orcid} label={t("details.orcid")} hint={t("details.orcidHint")} />
          <TextField meta={fields.secondaryEmail} type="email" label={t("details.secondaryEmail")} />
          <div className="field-row">
            <SelectField
              meta={fields.countryCode}
              label={t("auth:register.countryCode")}
              onChange={() => form.update({ name: fields.phoneNumber.name, value: "" })}
            >
              {countries.map((c) => (
                <option key={c.iso2} value={c.iso2}>
                  {c.name} ({c.callingCode})
                </option>
              ))}
            </SelectField>
            <TextField
              meta={fields.phoneNumber}
              type="tel"
              inputMode="numeric"
              maxLength={phoneMaxLength(codeCountry)}
              label={t("auth:register.phone")}
              required
            />
          </div>
          <SelectField meta={fields.country} label={t("auth:register.country")}>
            <option value="">{t("details.chooseCountry")}</option>
            {countries.map((c) => (
              <option key={c.iso2} value={c.iso2}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <SelectField meta={fields.language} label={t("auth:register.language")}>
            {SITE_LANGS.map((l) => (
              <option key={l} value={l}>
                {LANG_NATIVE_NAME[l]}
              </option>
            ))}
          </SelectField>
          <CheckboxField meta={fields.optinToMarketing} label={t("auth:register.optinToMarketing")} />
          <SubmitButton busy={busy && navigation.formData?.get("intent") === "details"} busyText={t("saving")}>
            {t("details.save")}
          </SubmitButton>
        </Form>
      </section>
      {user.changePasswordEnabled ? (
        <section className="card">
          <h2>{t("password.title")}</h2>
          <Form method="post" {...getFormProps(pwForm)} className="stack">
            <input type="hidden" name="intent" value="password" />
            <TextField
              meta={pwFields.currentPassword}
              type="password"
              label={t("password.current")}
              autoComplete="current-password"
              required
            />
            <NewPasswordField meta={pwFields.newPassword} label={t("password.new")} />
            <p className="field-hint">{t("password.signsOutEverywhere")}</p>
            <SubmitButton busy={busy && navigation.formData?.get("intent") === "password"} busyText={t("saving")}>
              {t("password.save")}
            </SubmitButton>
          </Form>
        </section>
      ) : null}
      <p>
        <a href={paths.addresses(lang)}>{t("nav.addresses")} →</a>
      </p>
    </div>
  );
}
