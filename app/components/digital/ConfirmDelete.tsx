// Delete asks first (spec 3 §4). Without JavaScript the button is a link to the confirmation route
// (…/delete/{identity}: GET asks, POST acts); with JavaScript the same link opens a <dialog> holding the same form.
import { useRef } from "react";
import { Form } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";

export function ConfirmDelete({ href, fileName }: { href: string; fileName: string }) {
  const { t } = useTranslation("digital");
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <a
        href={href}
        className="button button-small gc-danger"
        onClick={(event) => {
          if (!dialog.current?.showModal) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {t("list.delete")}
      </a>
      <dialog ref={dialog} className="confirm-dialog" aria-label={t("confirm.heading", { fileName })}>
        <Form method="post" action={href} className="stack">
          <h2>{t("confirm.heading", { fileName })}</h2>
          <p>{t("confirm.body")}</p>
          <div className="button-row">
            <button type="submit" className="button gc-danger-solid">
              {t("confirm.delete")}
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
