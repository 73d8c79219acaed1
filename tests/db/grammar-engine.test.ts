// The grammar engine for real (ADR 069): harper.js in its child process, on a text with planted errors. In the db
// lane because it is slow (the child's first lint takes seconds); it needs no database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assessText,
  EngineFailure,
  EngineInputError,
  HOST_LIMITS,
  hostStats,
  stopEngine,
  warmEngine,
} from "../../server/grammar-check/engine";

const CLEAN =
  "The observations of the thermal radio emission of the moon are consistent with a very low thermal conductivity " +
  "of the surface layer. When sufficiently accurate and complete measurements are available, it will be possible to " +
  "set limits on the thermal and electrical characteristics of the surface materials. Radio observations of Venus " +
  "and Jupiter have already supplied unexpected experimental data on the physical conditions of these planets. ";

/** Planted errors: each with the category it must land in and the flagged text. */
const PLANTED = [
  { sentence: "The samples were dried and weighed , then stored in sealed vials.", flagged: " ", category: "punctuation" },
  { sentence: "Their is no evidence that the coating changed the absorption.", flagged: "Their", category: "grammarMechanics" },
  { sentence: "The probe was cooled before teh measurement began.", flagged: "teh", category: "consistencySpellingTypos" },
  { sentence: "We could of repeated the experiment with a second detector.", flagged: "could of", category: "wordChoice" },
  { sentence: "The the spectrum shows a broad peak near the expected frequency.", flagged: "The the", category: "phrasing" },
] as const;

/** Resolves once the process is gone (SIGKILL is delivered at once; reaping takes a moment); fails after 2 s. */
async function gone(pid: number) {
  for (let i = 0; i < 40; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} still alive`);
}

const TEXT = CLEAN + PLANTED.map((p) => p.sentence).join(" ") + " " + CLEAN;

describe("grammar engine (harper in a child process)", () => {
  beforeAll(async () => {
    await warmEngine();
  }, 60_000);
  afterAll(() => stopEngine());

  it("finds the planted errors, in their categories and sentences, and scores the text", async () => {
    const report = await assessText(TEXT);
    expect(report.dialect).toBe("american");
    expect(report.words).toBeGreaterThan(100);
    expect(report.countSkipped).toBe(false);
    for (const planted of PLANTED) {
      const issue = report.issues.find((i) => i.sentence === planted.sentence && i.sentence.slice(i.start, i.end) === planted.flagged);
      expect(issue, planted.sentence).toBeDefined();
      expect(issue!.category).toBe(planted.category);
      expect(issue!.message.length).toBeGreaterThan(0);
    }
    const typo = report.issues.find((i) => i.sentence.slice(i.start, i.end) === "teh");
    expect(typo?.suggestion).toBe("the");
    for (const planted of PLANTED) expect(report.errorCount[planted.category]).toBeGreaterThanOrEqual(1);
    // The clean paragraphs add nothing: five planted errors, five issues.
    expect(Object.values(report.errorCount).reduce((a, b) => a + b, 0)).toBe(PLANTED.length);
    expect(report.score).toBeGreaterThan(0);
    expect(report.score).toBeLessThan(10);
  });

  it("checks a British manuscript as British: 'colour' and 'analysed' are not errors there", async () => {
    const british = "The organisation analysed the colour of the tumour at the centre of the sample. " + CLEAN;
    const report = await assessText(british);
    expect(report.dialect).toBe("british");
    expect(report.issues).toEqual([]);
    expect(report.score).toBe(10);
  });

  it("drops spelling lints on names and on terms of the corpus vocabulary, keeps a real misspelling", async () => {
    const report = await assessText("Thyroglobulin fractionation and centrifugation were done by Garstung, then recieved. " + CLEAN);
    const flagged = report.issues.map((i) => i.sentence.slice(i.start, i.end));
    expect(flagged).toEqual(["recieved"]);
  });

  it("refuses a text without words with a typed error", async () => {
    await expect(assessText("")).rejects.toBeInstanceOf(EngineInputError);
    await expect(assessText(" … 12 ")).resolves.toMatchObject({ words: 1, countSkipped: true });
    await expect(assessText(" … — ")).rejects.toBeInstanceOf(EngineInputError);
  });

  it("kills the child on a timeout, rejects the call, and the next call starts a new child", async () => {
    const before = hostStats().pid;
    expect(before).not.toBeNull();
    const limits = { ...HOST_LIMITS };
    HOST_LIMITS.callTimeoutMs = 1;
    HOST_LIMITS.msPer1000Chars = 0;
    try {
      await expect(assessText(CLEAN.repeat(20))).rejects.toBeInstanceOf(EngineFailure);
    } finally {
      Object.assign(HOST_LIMITS, limits);
    }
    expect(hostStats().pid).toBeNull();
    await gone(before!);
    const report = await assessText("The the results were clear. " + CLEAN);
    expect(report.errorCount.phrasing).toBe(1);
    expect(hostStats().pid).not.toBe(before);
  }, 30_000);

  it("stopEngine kills the child", async () => {
    const pid = hostStats().pid;
    expect(pid).not.toBeNull();
    stopEngine();
    expect(hostStats().pid).toBeNull();
    await gone(pid!);
  });
});
