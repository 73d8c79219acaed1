// The grammar check's captcha for anonymous uploads (spec 3 §5, ADR 070). Server-rendered, it is a short sum written
// as text with its signed token (works without JavaScript). Once hydrated, our own few lines (Web Crypto SHA-256,
// no third-party widget or script) solve the proof-of-work challenge, put it in the hidden `altcha` field and hide
// the question; the server then checks the proof of work alone. If the browser cannot solve it, the question stays.
import { useEffect, useState } from "react";
import { solveCaptcha, type CaptchaChallenge } from "#common/grammar-check/captcha";
import { useTranslation } from "#app/lib/translate";

export interface CaptchaProps {
  challenge: CaptchaChallenge;
  /** Field errors of the captcha (translation keys), shown under the question. */
  error?: string | null;
}

type SolveState = "question" | "working" | "solved" | "failed";

export function Captcha({ challenge, error }: CaptchaProps) {
  const { t } = useTranslation("grammar");
  const [state, setState] = useState<SolveState>("question");
  const [payload, setPayload] = useState("");

  useEffect(() => {
    let stopped = false;
    setPayload("");
    setState("working");
    solveCaptcha(challenge.altcha, () => stopped).then(
      (solved) => {
        if (stopped) return;
        setPayload(solved ?? "");
        setState(solved ? "solved" : "failed");
      },
      () => !stopped && setState("failed"),
    );
    return () => {
      stopped = true;
    };
  }, [challenge.altcha]);

  const solved = state === "solved";
  return (
    <fieldset className="grammar-captcha">
      <legend>{t("captcha.legend")}</legend>
      <input type="hidden" name="altcha" value={payload} />
      <input type="hidden" name="captchaToken" value={challenge.question.token} />
      {state === "working" ? <p role="status">{t("captcha.working")}</p> : null}
      {solved ? <p role="status">{t("captcha.solved")}</p> : null}
      {state === "failed" ? <p role="status">{t("captcha.failed")}</p> : null}
      <div hidden={solved}>
        <label>
          {t("captcha.question", { a: challenge.question.a, b: challenge.question.b })}{" "}
          <input
            name="captchaAnswer"
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={3}
            autoComplete="off"
            required={!solved}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "grammar-captcha-error" : undefined}
          />
        </label>
      </div>
      {error ? (
        <p id="grammar-captcha-error" className="field-error" role="alert">
          {t(error)}
        </p>
      ) : null}
    </fieldset>
  );
}
