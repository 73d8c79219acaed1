import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { Trans, useTranslation } from "#app/lib/translate";
import { checkEmailSchema, registerSchema, type CheckEmailFields, type RegisterFields } from "#common/auth/schemas";
import { useClientValidation } from "#app/lib/client-validation";
import { ErrorSummary, FormErrors, NewPasswordField, SubmitButton, TextField, summaryOf, useErrorText } from "#app/components/form";
import { getCurrentSession, homeDirectory, requireLang, safeRedirect } from "#app/lib/session.server";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { SocialButtons } from "#app/components/SocialButtons";
import { providersForPage } from "#server/auth/social";
import { localizationForHost } from "#server/config";
import { LANG_NATIVE_NAME, SITE_LANGS, type SiteLang } from "#common/i18n";
import { phoneMaxLength } from "#common/phone";
import { defaultPhoneCountry, localizeCountries } from "#app/lib/countries.server";
import { checkEmailFree, register, registerAsAdmin, registersAsAdmin, registrationChoices } from "#server/auth/sign-in";
import { parseFields, readFormData, replyWithErrors } from "#app/lib/forms.server";
import { pageScope } from "#app/lib/scope.server";
import type { Result } from "#common/result";
import { currencyName } from "#common/format";
import { paths } from "#common/paths";

export const handle = { i18n: ["auth", "social"] };
export const meta = titleMeta;

/** register/confirm/{data}: base64 JSON from a social sign-in ({ email, firstName, lastName, link }). */
function parsePrefill(
  data: string | undefined,
): { email: string; firstName?: string; lastName?: string; link?: string } | "invalid" | null {
  if (!data) return null;
  try {
    const json = JSON.parse(Buffer.from(decodeURIComponent(data).replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"));
    if (!json || typeof json.email !== "string") return "invalid";
    const str = (v: unknown) => (typeof v === "string" ? v.slice(0, 200) : undefined);
    return { email: json.email.slice(0, 254), firstName: str(json.firstName), lastName: str(json.lastName), link: str(json.link) };
  } catch {
    return "invalid";
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  const url = new URL(request.url);
  // A signed-in visitor goes home; an administrator registers a researcher here (spec 1 §6, ADR 066).
  const session = await getCurrentSession(request, context);
  const admin = registersAsAdmin({ session });
  if (session && !admin) throw redirect(safeRedirect(url.searchParams.get("redirect"), homeDirectory(lang)));
  const [t, { countries, currencies }, snapshot] = await Promise.all([
    getFixedT(request, "auth"),
    registrationChoices(context.app),
    context.app.config.snapshot(),
  ]);
  const localization = snapshot.localizations.find((l) => l.defaultLang === lang);
  const prefill = parsePrefill(params.data);
  const siteLocalization = localizationForHost(snapshot.localizations, request.headers.get("host"));
  const providers =
    prefill || admin
      ? []
      : await providersForPage(context.app, {
          lang,
          localization: siteLocalization.identity,
          redirect: url.searchParams.get("redirect"),
          origin: url.searchParams.get("origin"),
        });
  return {
    title: t(admin ? "register.admin.title" : "register.title"),
    admin,
    providers,
    prefill: prefill === "invalid" ? null : prefill,
    prefillInvalid: prefill === "invalid",
    countries: localizeCountries(countries, lang),
    currencies: currencies.map((c) => ({
      isoCode: c.isoCode,
      name: currencyName(c.isoCode, lang, c.name),
      sign: c.sign,
      selectable: c.selectable,
    })),
    defaults: {
      // The China site (its host, or the cn pages) starts at +86 / China (spec 1 §3, §7), whatever the language.
      countryCode: defaultPhoneCountry(lang, siteLocalization.identity),
      country: defaultPhoneCountry(lang, siteLocalization.identity),
      currency: localization && localization.defaultCurrency !== "CNY" ? localization.defaultCurrency : lang === "cn" ? "CNY" : "USD",
      language: lang,
    },
    options: {
      allowLanguageSelection: Boolean(snapshot.config.allowLanguageSelection),
      marketingOptIn: Boolean(snapshot.config.marketingOptIn),
      institutionInfoMandatory: Boolean(snapshot.config.institutionInfoMandatory),
      // Only the configured answers the portal has words for (a new one shows once translated, never as a key).
      foundUsOptions: (snapshot.config.foundUsOptions as string[])
        .map((value) => ({ value, label: t(`register.foundUsOptions.${value}`, { defaultValue: "" }) }))
        .filter((o) => o.label),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  const formData = await readFormData(request);
  if (formData.get("intent") === "check-email") {
    const submission = parseFields<CheckEmailFields>(formData, checkEmailSchema);
    if (submission.status !== "success") return Response.json({ stage: 1 as const, result: submission.reply() }, { status: 400 });
    const free = await checkEmailFree(scope, submission.value.email);
    if (!free.ok) {
      const tooMany = free.error === "too-many-requests";
      const result = tooMany ? submission.reply({ formErrors: ["auth:errors.tooManyRequests"] }) : replyWithErrors(submission, free);
      return Response.json({ stage: 1 as const, result }, { status: tooMany ? 429 : 400 });
    }
    return Response.json({ stage: 2 as const, email: free.value.email, result: null });
  }

  const { countries } = await registrationChoices(context.app);
  const submission = parseFields<RegisterFields>(formData, registerSchema(countries));
  const email = String(formData.get("email") ?? "");
  const hideFields = ["password"];
  if (submission.status !== "success")
    return Response.json({ stage: 2 as const, email, result: submission.reply({ hideFields }) }, { status: 400 });
  const v = submission.value;
  const link = typeof formData.get("link") === "string" ? String(formData.get("link")) : null;
  // An administrator registers a researcher and stays signed in as themselves (spec 1 §6, ADR 066); anyone else gets
  // the same registration as POST /api/auth/register: the account, the social identity it began with, and the
  // browser's anonymous work claimed.
  const input = { ...v, optinToMarketing: v.optinToMarketing ?? false };
  const result: Result<{ identity: string; token?: string }> = registersAsAdmin(scope)
    ? await registerAsAdmin(scope, input)
    : await register(scope, input, { link, source: link ? "social" : "form" });
  if (!result.ok) {
    if (result.error === "too-many-attempts") {
      const reply = submission.reply({ formErrors: ["auth:errors.tooManyRequests"], hideFields });
      return Response.json({ stage: 2 as const, email, result: reply }, { status: 429 });
    }
    const stage = result.fieldErrors.email ? (1 as const) : (2 as const);
    return Response.json({ stage, email, result: replyWithErrors(submission, result, { hideFields }) }, { status: 400 });
  }
  // The administrator goes on to the new researcher's staff page.
  if (!result.value.token) return redirect(paths.staffResearcher(scope.lang, result.value.identity, { registered: 1 }), { status: 303 });
  // Spec 1 §4: after registering, the redirect, or '/' (which sends a signed-in user home).
  return signedInRedirect(context, { token: result.value.token, lang: v.language, target: v.redirect, fallback: paths.home(scope.lang) });
}

export default function Register() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const lang = useLang();
  const [searchParams] = useSearchParams();
  // Where the visitor was going travels on to the sign-in links.
  const query = { redirect: searchParams.get("redirect") || undefined, origin: searchParams.get("origin") || undefined };
  const stage = actionData?.stage ?? (data.prefill ? 2 : 1);

  return (
    <div className={`auth-card${stage === 2 ? " wide" : ""}`}>
      <h1>{t(data.admin ? "register.admin.title" : "register.title")}</h1>
      {data.admin ? (
        <p className="alert alert-info" role="note">
          {t("register.admin.note")}
        </p>
      ) : null}
      {data.prefillInvalid ? <FormErrors errors={["auth:register.errors.confirm-data-invalid"]} /> : null}
      {stage === 1 ? (
        <EmailStage lastResult={actionData?.stage === 1 ? actionData.result : undefined} query={query} />
      ) : (
        <DetailsStage
          email={actionData?.email ?? data.prefill?.email ?? ""}
          lastResult={actionData?.result ?? undefined}
          data={data}
          query={query}
        />
      )}
      {stage === 1 ? <SocialButtons providers={data.providers} /> : null}
      {data.admin ? null : (
        <p className="auth-links">
          <Link to={paths.login(lang, query)}>{t("register.haveAccount")}</Link>
        </p>
      )}
    </div>
  );
}

/** The redirect and origin query values a page carries on to its sign-in links. */
type CarriedQuery = { redirect?: string; origin?: string };

function Carried() {
  const [searchParams] = useSearchParams();
  return (
    <>
      <input type="hidden" name="redirect" value={searchParams.get("redirect") ?? ""} />
      <input type="hidden" name="origin" value={searchParams.get("origin") ?? ""} />
      {/* The referral link's code (issue 25): through both stages, with or without JavaScript. */}
      {searchParams.get("referralCode") ? <input type="hidden" name="referralCode" value={searchParams.get("referralCode") ?? ""} /> : null}
    </>
  );
}

function EmailStage({ lastResult, query }: { lastResult: unknown; query: CarriedQuery }) {
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const lang = useLang();
  const [form, fields] = useForm<CheckEmailFields>({
    id: "register-email",
    lastResult: lastResult as never,
    onValidate: useClientValidation("checkEmail"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const exists = fields.email.errors?.includes("auth:register.errors.email-already-exists");
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <p>{t("register.emailFirst")}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="check-email" />
      <Carried />
      <TextField meta={fields.email} type="email" label={t("login.email")} autoComplete="email" required />
      {exists ? (
        <p>
          <Link to={paths.login(lang, query)}>{t("register.signInInstead")}</Link> ·{" "}
          <Link to={paths.forgotPassword(lang, query)}>{t("login.forgot")}</Link>
        </p>
      ) : null}
      <SubmitButton busy={navigation.state === "submitting"} busyText={t("register.checking")}>
        {t("register.continue")}
      </SubmitButton>
    </Form>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function DetailsStage({ email, lastResult, data, query }: { email: string; lastResult: unknown; data: LoaderData; query: CarriedQuery }) {
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const lang = useLang();
  const errorText = useErrorText();
  const [form, fields] = useForm<RegisterFields>({
    id: "register-details",
    lastResult: lastResult as never,
    defaultValue: { ...data.defaults, email, firstName: data.prefill?.firstName, lastName: data.prefill?.lastName },
    onValidate: useClientValidation("register", data.countries),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const codeCountry = data.countries.find((c) => c.iso2 === (fields.countryCode.value ?? data.defaults.countryCode));
  const country = fields.country.value ?? data.defaults.country;
  // CNY only for China (spec 1 §5), unless an administrator registers: every currency (spec 1 §6).
  const currencies = data.currencies.filter((c) => data.admin || c.selectable || (c.isoCode === "CNY" && country === "CN"));
  const select = (meta: typeof fields.country, label: string, children: React.ReactNode, onChange?: () => void) => {
    const err = errorText(meta.errors);
    return (
      <div className={`field${err ? " field-invalid" : ""}`}>
        <label htmlFor={meta.id}>{label}</label>
        <select {...getSelectProps(meta)} key={meta.key} onChange={onChange}>
          {children}
        </select>
        {err ? (
          <p className="field-error" id={meta.errorId} role="alert">
            {err}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <ErrorSummary
        entries={summaryOf(fields, {
          password: t("login.password"),
          firstName: t("register.firstName"),
          lastName: t("register.lastName"),
          countryCode: t("register.countryCode"),
          phoneNumber: t("register.phone"),
          country: t("register.country"),
          currency: t("register.currency"),
          language: t("register.language"),
          institution: t(data.options.institutionInfoMandatory ? "register.institution" : "register.institutionOptional"),
          title: t("register.personTitle"),
          workplace: t("register.workplace"),
          orcid: t("register.orcid"),
          secondaryEmail: t("register.secondaryEmail"),
          foundUs: t("register.foundUs"),
          otherFoundUs: t("register.otherFoundUs"),
          agreeToTOS: t("register.agreeToTOSShort"),
        })}
      />
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="email" value={email} />
      {data.prefill?.link ? <input type="hidden" name="link" value={data.prefill.link} /> : null}
      <Carried />
      <p>
        {t("register.emailLabel")} <strong>{email}</strong> · <Link to={paths.register(lang, query)}>{t("register.changeEmail")}</Link>
      </p>
      <NewPasswordField meta={fields.password} label={t("login.password")} />
      <div className="field-row">
        <TextField meta={fields.firstName} label={t("register.firstName")} autoComplete="given-name" required />
        <TextField meta={fields.lastName} label={t("register.lastName")} autoComplete="family-name" required />
      </div>
      <div className="field-row">
        {select(
          fields.countryCode,
          t("register.countryCode"),
          data.countries.map((c) => (
            <option key={c.iso2} value={c.iso2}>
              {c.name} ({c.callingCode})
            </option>
          )),
          // Changing the country code clears the phone number (spec 1 §4).
          () => form.update({ name: fields.phoneNumber.name, value: "" }),
        )}
        <TextField
          meta={fields.phoneNumber}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={phoneMaxLength(codeCountry)}
          label={t("register.phone")}
          required
        />
      </div>
      {select(
        fields.country,
        t("register.country"),
        data.countries.map((c) => (
          <option key={c.iso2} value={c.iso2}>
            {c.name}
          </option>
        )),
      )}
      {select(
        fields.currency,
        t("register.currency"),
        currencies.map((c) => (
          <option key={c.isoCode} value={c.isoCode}>
            {c.isoCode} — {c.name}
          </option>
        )),
      )}
      {data.options.allowLanguageSelection ? (
        select(
          fields.language,
          t("register.language"),
          SITE_LANGS.map((l: SiteLang) => (
            <option key={l} value={l}>
              {LANG_NATIVE_NAME[l]}
            </option>
          )),
        )
      ) : (
        <input type="hidden" name="language" value={lang} />
      )}
      <TextField
        meta={fields.institution}
        label={t(data.options.institutionInfoMandatory ? "register.institution" : "register.institutionOptional")}
        autoComplete="organization"
        required={data.options.institutionInfoMandatory}
      />
      {/* Open when one of its fields was refused, so the message is seen without JavaScript too. */}
      <details
        className="more-about-you"
        open={Boolean(
          fields.title.errors ??
          fields.workplace.errors ??
          fields.orcid.errors ??
          fields.secondaryEmail.errors ??
          fields.otherFoundUs.errors,
        )}
      >
        <summary>{t("register.moreAboutYou")}</summary>
        <div className="stack">
          <TextField meta={fields.title} label={t("register.personTitle")} autoComplete="honorific-prefix" maxLength={40} />
          <TextField meta={fields.workplace} label={t("register.workplace")} maxLength={200} />
          <TextField meta={fields.orcid} label={t("register.orcid")} placeholder="0000-0000-0000-0000" maxLength={19} />
          <TextField meta={fields.secondaryEmail} type="email" label={t("register.secondaryEmail")} autoComplete="email" />
          {data.options.foundUsOptions.length
            ? select(fields.foundUs, t("register.foundUs"), [
                <option key="" value="">
                  {t("register.foundUsChoose")}
                </option>,
                ...data.options.foundUsOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                )),
              ])
            : null}
          <TextField meta={fields.otherFoundUs} label={t("register.otherFoundUs")} maxLength={200} />
        </div>
      </details>
      {data.options.marketingOptIn ? (
        <label className="checkbox">
          <input {...getInputProps(fields.optinToMarketing, { type: "checkbox" })} key={fields.optinToMarketing.key} />
          <span>{t("register.optinToMarketing")}</span>
        </label>
      ) : null}
      <div className={`field${fields.agreeToTOS.errors ? " field-invalid" : ""}`}>
        <label className="checkbox">
          <input {...getInputProps(fields.agreeToTOS, { type: "checkbox" })} key={fields.agreeToTOS.key} />
          <span>
            <Trans
              t={t}
              i18nKey="register.agreeToTOS"
              components={{ terms: <Link to={paths.terms(lang)} />, privacy: <Link to={paths.privacy(lang)} /> }}
            />
          </span>
        </label>
        {fields.agreeToTOS.errors ? (
          <p className="field-error" id={fields.agreeToTOS.errorId} role="alert">
            {errorText(fields.agreeToTOS.errors)}
          </p>
        ) : null}
      </div>
      <SubmitButton busy={navigation.state === "submitting"} busyText={t("register.processing")}>
        {t("register.submit")}
      </SubmitButton>
    </Form>
  );
}
