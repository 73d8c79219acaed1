// Client-side validation with the server's own zod schemas, loaded after the
// page is interactive so the first load stays small (DESIGN §7: ≤ 100 KiB of
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

export function useClientValidation(name: ValidatorName, arg?: unknown): (ctx: { formData: FormData }) => AnySubmission {
  useEffect(() => {
    void loadValidators();
  }, []);
  return ({ formData }: { formData: FormData }) =>
    (loaded ? loaded.validate(name, formData, arg) : parse(formData, { resolve: (value) => ({ value }) })) as AnySubmission;
}
