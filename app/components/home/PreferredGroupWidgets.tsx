// The preferred group widgets of the dashboard's widget row and of /home (spec 2 §2 "Widget row", spec 3 §2
// "Preferred groups"; issue 25 item 5): the membership widget (the group, its greeting and discount, Leave) and the
// join-a-group widget (a group code text field). Plain forms posting intent join / leave to the page's own action:
// they work without JavaScript. The membership widget is not shown for the free-trial groups (membershipDisplayed).
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { formatMoney } from "#common/money";
import { GROUP_CODE_MAX, type GroupOutcome } from "#common/groups/outcomes";

export interface GroupWidgetData {
  code: string;
  name: string;
  discount: number;
  percentageDiscount: boolean;
  membershipDisplayed: boolean;
  greetingText: string | null;
}

const USD = { isoCode: "USD", sign: "$", numDecimals: 2 };

export function PreferredGroupWidgets({
  group,
  outcome,
  error,
  typedCode,
}: {
  group: GroupWidgetData | null;
  /** `?group=` after a 303: which success message to show. */
  outcome: GroupOutcome | null;
  /** A refused join's message key. */
  error?: string | null;
  typedCode?: string | null;
}) {
  const { t } = useTranslation("home");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && ["join", "leave"].includes(String(navigation.formData?.get("intent")));
  if (group && !group.membershipDisplayed) return null;
  if (group) {
    const discount = group.percentageDiscount ? `${group.discount}%` : formatMoney(Math.round(group.discount), USD);
    return (
      <section className="card dashboard-widget group-widget" aria-labelledby="group-widget-title">
        <h2 id="group-widget-title">{t("group.title")}</h2>
        {outcome === "joined" ? (
          <p className="alert alert-success" role="status">
            {t("group.joined")}
          </p>
        ) : null}
        <p>
          {t("group.member", { name: group.name })} <code>{group.code}</code>
        </p>
        {group.greetingText ? <p className="group-greeting">{group.greetingText}</p> : null}
        <p>{t("group.discount", { discount })}</p>
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="button button-small" disabled={busy}>
            {t("group.leave")}
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="card dashboard-widget join-group-widget" aria-labelledby="join-group-title">
      <h2 id="join-group-title">{t("join.title")}</h2>
      {outcome === "left" ? (
        <p className="alert alert-success" role="status">
          {t("messages.preferred-group-leave-success")}
        </p>
      ) : null}
      <p>{t("join.text")}</p>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="join" />
        <div className={`field${error ? " field-invalid" : ""}`}>
          <label htmlFor="group-code">{t("join.label")}</label>
          <input
            id="group-code"
            name="groupCode"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={GROUP_CODE_MAX}
            required
            defaultValue={typedCode ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "group-code-error" : undefined}
          />
          {error ? (
            <p id="group-code-error" className="field-error" role="alert">
              {t(error)}
            </p>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit" className="button button-small" disabled={busy}>
            {t("join.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
