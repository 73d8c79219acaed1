// What the chosen services ask of the researcher (spec 2 §3 "Service details response", §5): the file types
// they take, whether the target journal is requested or required, and the questions with their follow-ups.
// One table in code (SERVICE_QUESTIONS): the catalogue has no questions of its own yet, and the page, the
// edit form and GET /api/service-details all read it here. Answers are keyed by the question's label.
import { getCatalogue, SCIENTIFIC_EDITING_SLUG, type Catalogue, type CatalogueService } from "../catalogue";
import { allowedExtensions } from "../documents/storage";
import type { AppContext } from "../context";

export type QuestionType = "radio" | "text";

export interface ServiceQuestion {
  /** The stable label answers are keyed by (spec 2 §3 "Answers are keyed by question label"). */
  label: string;
  type: QuestionType;
  required: boolean;
  /** Shown from the start; a follow-up shows once a choice naming it is chosen. */
  displayed: boolean;
  choices: { label: string; followUpQuestionIdentities: string[] }[];
  styles: string[];
  /** The service that asks it. */
  serviceSlug: string;
  /** Translation keys of the text (details namespace). */
  textKey: string;
}

export interface ServiceDetails {
  fileTypes: string[];
  journalDetails: { required: boolean; requested: boolean };
  questions: ServiceQuestion[];
  questionsRequiringPreviousSelection: ServiceQuestion[];
}

type QuestionSeed = Omit<ServiceQuestion, "serviceSlug" | "textKey" | "displayed" | "styles">;

/** Questions per service slug; follow-ups are listed after the question that opens them. */
const SERVICE_QUESTIONS: Record<string, { top: QuestionSeed[]; followUps: QuestionSeed[] }> = {
  "manuscript-formatting": {
    top: [
      {
        label: "reference-style",
        type: "radio",
        required: true,
        choices: [
          { label: "journal", followUpQuestionIdentities: [] },
          { label: "apa", followUpQuestionIdentities: [] },
          { label: "vancouver", followUpQuestionIdentities: [] },
          { label: "other", followUpQuestionIdentities: ["reference-style-other"] },
        ],
      },
    ],
    followUps: [{ label: "reference-style-other", type: "text", required: true, choices: [] }],
  },
  "graphical-abstract": {
    top: [
      {
        label: "abstract-orientation",
        type: "radio",
        required: true,
        choices: [
          { label: "landscape", followUpQuestionIdentities: [] },
          { label: "portrait", followUpQuestionIdentities: [] },
          { label: "journal-size", followUpQuestionIdentities: ["abstract-size"] },
        ],
      },
    ],
    followUps: [{ label: "abstract-size", type: "text", required: true, choices: [] }],
  },
};

/** Services whose work is done to a journal's rules: its name is required (spec 2 §5). */
const JOURNAL_REQUIRED = new Set(["manuscript-formatting", "cover-letter"]);

const MANUSCRIPT_TYPES = ["doc", "docx", "odt", "rtf", "txt", "tex", "pdf"];
const FIGURE_TYPES = ["png", "jpg", "jpeg", "tif", "tiff", "eps", "svg", "pdf", "ppt", "pptx", "xls", "xlsx"];

export const ANSWER_MAX = 500;

/** The catalogue services named by slug or identity (unknown ones are left out). */
export function servicesByRef(catalogue: Catalogue, refs: string[]): CatalogueService[] {
  const out: CatalogueService[] = [];
  for (const ref of refs) {
    const s = catalogue.services.find((c) => c.slug === ref || c.identity === ref);
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/** The details of a set of services (pure: the caller gives the catalogue and the portal's allowed types). */
export function detailsOf(services: CatalogueService[], allowed: ReadonlySet<string>): ServiceDetails {
  const types = new Set<string>();
  for (const s of services) {
    const list = s.group === "figures" || s.slug === "figure-formatting" || s.slug === "table-formatting" ? FIGURE_TYPES : MANUSCRIPT_TYPES;
    for (const t of list) if (allowed.has(t)) types.add(t);
  }
  const questions: ServiceQuestion[] = [];
  const followUps: ServiceQuestion[] = [];
  for (const s of services) {
    const q = SERVICE_QUESTIONS[s.slug];
    if (!q) continue;
    const make = (seed: QuestionSeed, displayed: boolean): ServiceQuestion => ({
      ...seed,
      displayed,
      styles: seed.type === "text" ? ["follow-up"] : [],
      serviceSlug: s.slug,
      textKey: `details:questions.${seed.label}.text`,
    });
    questions.push(...q.top.map((seed) => make(seed, true)));
    followUps.push(...q.followUps.map((seed) => make(seed, false)));
  }
  const required = services.some((s) => JOURNAL_REQUIRED.has(s.slug));
  // Spec 1 §4: the journal is not asked for scientific editing; editing and translation ask for it.
  const requested =
    required ||
    (services.some((s) => s.type === "editing" || s.type === "translation") && !services.some((s) => s.slug === SCIENTIFIC_EDITING_SLUG));
  return { fileTypes: [...types], journalDetails: { required, requested }, questions, questionsRequiringPreviousSelection: followUps };
}

/** GET /api/service-details: the details of the services named (slugs or identities). */
export async function serviceDetails(app: AppContext, refs: string[]): Promise<ServiceDetails> {
  const [catalogue, allowed] = await Promise.all([getCatalogue(app), allowedExtensions(app)]);
  return detailsOf(servicesByRef(catalogue, refs), allowed);
}

/**
 * Checks answers against the questions of the services (spec 2 §5): a required question shown must be
 * answered ('Value is required and can't be empty'), a choice must be one of its choices, and a follow-up
 * that is hidden (its opening choice is not chosen) has its answer cleared. Returns the cleaned answers.
 */
export function checkAnswers(
  details: Pick<ServiceDetails, "questions" | "questionsRequiringPreviousSelection">,
  raw: Record<string, unknown>,
): { answers: Record<string, string>; errors: Record<string, string> } {
  const answers: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const shown = new Set<string>();
  const check = (q: ServiceQuestion) => {
    const value = typeof raw[q.label] === "string" ? (raw[q.label] as string).trim() : "";
    if (q.type === "radio") {
      const choice = q.choices.find((c) => c.label === value);
      if (value && !choice) errors[q.label] = "details:errors.answer-invalid";
      else if (choice) {
        answers[q.label] = choice.label;
        choice.followUpQuestionIdentities.forEach((f) => shown.add(f));
      }
    } else if (value.length > ANSWER_MAX) errors[q.label] = "details:errors.answer-too-long";
    else if (value) answers[q.label] = value;
    if (q.required && !answers[q.label] && !errors[q.label]) errors[q.label] = "details:errors.value-required";
  };
  details.questions.forEach(check);
  // Hidden dependent questions have their answer cleared (never stored, never checked).
  details.questionsRequiringPreviousSelection.filter((q) => shown.has(q.label)).forEach(check);
  return { answers, errors };
}
