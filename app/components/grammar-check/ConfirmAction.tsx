// Archive and delete ask first (spec 3 §2, §4). Without JavaScript the button is a link to a confirmation page
// (researcher/grammar-check/archive|delete/:identity) whose form posts; with JavaScript the same link opens a
// <dialog> holding the same form, so the researcher stays on the list. Either way the POST goes to the
// confirmation route's action, which archives or deletes and answers 303.
import { useRef } from "react";
import { Form } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";

export function ConfirmAction({
  href,
  label,
  heading,
  body,
  confirm,
  danger = false,
}: {
  href: string;
  label: string;
  heading: string;
  body: string;
  confirm: string;
  danger?: boolean;
}) {
  const { t } = useTranslation("grammar");
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <a
        href={href}
        className={`button button-small${danger ? " gc-danger" : ""}`}
        onClick={(event) => {
          if (!dialog.current?.showModal) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {label}
      </a>
      <dialog ref={dialog} className="confirm-dialog" aria-label={heading}>
        <Form method="post" action={href} className="stack">
          <h2>{heading}</h2>
          <p>{body}</p>
          <div className="button-row">
            <button type="submit" className={`button ${danger ? "gc-danger-solid" : "button-primary"}`}>
              {confirm}
            </button>
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              {t("confirm.cancel")}
            </button>
          </div>
        </Form>
      </dialog>
    </>
  );
}
