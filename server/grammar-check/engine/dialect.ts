// American or British English, from the document's own spelling (ADR 069): harper and the dictionary then
// check the text in the variety the author chose, so "colour" is not an error in a British manuscript.

/** Pairs that differ only by variety (British first). Checked as whole words, any case, with common endings. */
const WORD_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["colour", "color"],
  ["behaviour", "behavior"],
  ["favour", "favor"],
  ["honour", "honor"],
  ["labour", "labor"],
  ["neighbour", "neighbor"],
  ["tumour", "tumor"],
  ["humour", "humor"],
  ["flavour", "flavor"],
  ["vapour", "vapor"],
  ["odour", "odor"],
  ["rumour", "rumor"],
  ["harbour", "harbor"],
  ["centre", "center"],
  ["fibre", "fiber"],
  ["litre", "liter"],
  ["theatre", "theater"],
  ["millimetre", "millimeter"],
  ["centimetre", "centimeter"],
  ["kilometre", "kilometer"],
  ["catalogue", "catalog"],
  ["analogue", "analog"],
  ["haemoglobin", "hemoglobin"],
  ["anaemia", "anemia"],
  ["oestrogen", "estrogen"],
  ["oedema", "edema"],
  ["leukaemia", "leukemia"],
  ["paediatric", "pediatric"],
  ["foetal", "fetal"],
  ["ischaemia", "ischemia"],
  ["aluminium", "aluminum"],
  ["sulphur", "sulfur"],
  ["grey", "gray"],
  ["modelled", "modeled"],
  ["modelling", "modeling"],
  ["labelled", "labeled"],
  ["labelling", "labeling"],
  ["travelled", "traveled"],
  ["signalling", "signaling"],
  ["cancelled", "canceled"],
  ["programme", "program"],
  ["defence", "defense"],
  ["licence", "license"],
  ["manoeuvre", "maneuver"],
];

/** -ise words that are spelled -ise in both varieties (not a sign of British spelling). */
const ISE_BOTH = new Set(
  (
    "advise advertise apprise arise chastise circumcise comprise compromise concise demise despise devise disguise " +
    "enterprise excise exercise expertise franchise improvise incise merchandise noise otherwise paradise poise praise " +
    "precise premise promise raise revise rise supervise surmise surprise televise treatise wise guise cruise chemise " +
    "anise mortise porpoise tortoise bruise reprise valise cerise"
  ).split(" "),
);
/** -ize words that are spelled -ize in both varieties. */
const IZE_BOTH = new Set("size seize prize capsize maize baize assize downsize oversize resize".split(" "));

const WORD = /[A-Za-z]+/g;
const ENDINGS = ["", "s", "ed", "ing", "al", "ly", "ic", "ist", "ists", "er", "ers", "ite", "ites"];

/** British and American signs in the text: the counts behind detectDialect (exported for the tests and the ADR). */
export function dialectSigns(text: string): { british: number; american: number } {
  const british = new Map<string, true>();
  const american = new Map<string, true>();
  for (const [gb, us] of WORD_PAIRS)
    for (const ending of ENDINGS) {
      british.set(gb + ending, true);
      american.set(us + ending, true);
    }
  let gb = 0;
  let us = 0;
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (british.has(word)) gb++;
    else if (american.has(word)) us++;
    else {
      // -ise/-isation/-yse vs -ize/-ization/-yze: the stem before the suffix, checked against the "both" lists.
      const ise = /^(\w{2,}?)(is|iz|ys|yz)(e|es|ed|ing|ation|ations|er|ers)$/.exec(word);
      if (!ise) continue;
      const [, stem, mid] = ise;
      const base = stem + mid + "e";
      if (mid === "is" || mid === "ys") {
        if (mid === "is" && (ISE_BOTH.has(base) || stem.length < 3 || /(?:wise|rise)$/.test(base))) continue;
        // "analyses" is also the plural of "analysis", in both varieties.
        if (mid === "ys" && ise[3] === "es") continue;
        gb++;
      } else {
        if (IZE_BOTH.has(base)) continue;
        us++;
      }
    }
  }
  return { british: gb, american: us };
}

/** British when British signs outnumber American ones; American otherwise (also harper's default). */
export function detectDialect(text: string): "american" | "british" {
  const { british, american } = dialectSigns(text);
  return british > american ? "british" : "american";
}
