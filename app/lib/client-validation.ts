// Client-side validation with the server's own zod schemas, loaded when the
// visitor first interacts with the page so the first load stays small (DESIGN §7: ≤ 100 KiB of
// gzipped JavaScript). Until the schemas arrive the form simply posts and the
// server validates, exactly as it does without JavaScript.
import { parse, type Submission } from "@conform-to/react";
import { useEffect } from "react";
import type { ValidatorName } from "./validators";

type Module = typeof import("./validators");
let loaded: Module | null = null;
let loading: Promise<Module> | null = null;

export function loadValidators(): Promise<Module> {
  loading ??= import("./validators").then((m) => (loaded = m));
  return loading;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySubmission = Submission<any, string[]>;

// The schemas (zod and conform's zod adapter, ~29 KiB compressed) are fetched on the visitor's first
// interaction with the page, not on mount: a page that is only looked at, and the first paint on a slow link
// (where they shared the bandwidth with the page's own scripts), do not pay for them (issue 26 §4, ADR 080).
// Typing or clicking into a form starts the load; a submit before it arrives is validated by the server.
const FIRST_INTERACTION = ["focusin", "pointerdown", "keydown", "touchstart"] as const;

function loadOnFirstInteraction(): () => void {
  if (loaded || loading) return () => undefined;
  const start = () => {
    stop();
    void loadValidators();
  };
  const stop = () => FIRST_INTERACTION.forEach((type) => document.removeEventListener(type, start, true));
  FIRST_INTERACTION.forEach((type) => document.addEventListener(type, start, { capture: true, passive: true }));
  // A field that already has the focus (autofocus, or focused before hydration) counts as an interaction.
  if (document.activeElement && document.activeElement !== document.body) start();
  return stop;
}

export function useClientValidation(name: ValidatorName, arg?: unknown): (ctx: { formData: FormData }) => AnySubmission {
  useEffect(loadOnFirstInteraction, []);
  return ({ formData }: { formData: FormData }) =>
    (loaded ? loaded.validate(name, formData, arg) : parse(formData, { resolve: (value) => ({ value }) })) as AnySubmission;
}
