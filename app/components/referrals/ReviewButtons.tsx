// Approve / reject one testimonial (staff; issue 25 item 4): two small forms, POST → 303 with or without JavaScript.
import { Form } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";

export function ReviewButtons({ id, status, action }: { id: string; status: string; action?: string }) {
  const { t } = useTranslation("referrals");
  return (
    <div className="testimonial-review">
      {(["approve", "reject"] as const).map((intent) =>
        (intent === "approve" && status === "approved") || (intent === "reject" && status === "rejected") ? null : (
          <Form method="post" action={action} key={intent}>
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="id" value={id} />
            <button type="submit" className={`button button-small${intent === "approve" ? " button-primary" : ""}`}>
              {t(`staff.${intent}`)}
            </button>
          </Form>
        ),
      )}
    </div>
  );
}
