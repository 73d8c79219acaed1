// Apertium (issue 24, ADR 072): the offline rule-based translator, Debian packages apertium, apertium-eng-spa
// (mode spa-eng) and apertium-es-pt (mode pt-es). Spanish → English is one call of `apertium -u spa-eng`;
// Portuguese goes through Spanish (`pt-es`, then `spa-eng`); there is no Chinese pair.
// - A call is a child process (spawn, text on stdin, translation on stdout) killed past its time limit.
// - Paragraphs are sent together, separated by a blank line, which Apertium keeps (measured: ADR 072); should
//   the count of paragraphs out differ from the count in, that batch is translated paragraph by paragraph.
// - `-u`: unknown words are left as they are, without Apertium's `*` mark. The reader sees the untranslated
//   source word either way; a `*` in running text reads as a footnote or a typo, and the note on top already
//   says the translation is a draft.
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TranslationLanguage } from "#common/digital/constants";
import { DigitalEngineError } from "../types";
import type { TranslationAdapter } from "./adapter";

export const APERTIUM_LIMITS = {
  /** One call's time limit: base + per 1,000 characters of input. */
  callTimeoutMs: 30_000,
  msPer1000Chars: 1_000,
  /** Paragraphs are sent in batches of at most this many characters. */
  maxBatchChars: 50_000,
  /** Output past this many bytes (a runaway) kills the call. */
  maxOutputBytes: 20 * 1024 * 1024,
};

/** The modes each language needs, in order. */
const MODES: Partial<Record<TranslationLanguage, string[]>> = { es_ES: ["spa-eng"], pt_BR: ["pt-es", "spa-eng"] };
const MODE_DIRS = ["/usr/share/apertium/modes", "/usr/local/share/apertium/modes"];
const SEPARATOR = "\n\n";

let installed: { binary: string | null; modes: Set<string> } | null = null;

/** What is installed: the `apertium` command on PATH and the modes files (checked once, then cached). */
export function apertiumInstallation(): { binary: string | null; modes: Set<string> } {
  if (installed) return installed;
  const binary =
    (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter(Boolean)
      .map((dir) => path.join(dir, "apertium"))
      .find((file) => {
        try {
          fs.accessSync(file, fs.constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }) ?? null;
  const modes = new Set<string>();
  for (const dir of MODE_DIRS) {
    try {
      for (const file of fs.readdirSync(dir)) if (file.endsWith(".mode")) modes.add(file.slice(0, -".mode".length));
    } catch {
      /* not there */
    }
  }
  installed = { binary, modes };
  return installed;
}

/** For the tests: check the installation again. */
export function forgetApertiumInstallation(): void {
  installed = null;
}

/**
 * One `apertium -u <mode> <file>` over `input`; the translation without Apertium's trailing newline. The text
 * goes through a temporary file, not stdin: the `apertium` script opens /dev/stdin by name, which fails on the
 * socket Node gives a child as stdin (measured: empty output, "USAGE: apertium-destxt").
 */
export async function runApertium(mode: string, input: string): Promise<string> {
  const { binary } = apertiumInstallation();
  if (!binary) throw new DigitalEngineError("engine", "apertium is not installed");
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "apertium-"));
  const file = path.join(dir, "input.txt");
  try {
    await fsp.writeFile(file, `${input}\n`, { mode: 0o600 });
    return await spawnApertium(binary, mode, file, input.length);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

function spawnApertium(binary: string, mode: string, file: string, chars: number): Promise<string> {
  const limit = APERTIUM_LIMITS.callTimeoutMs + Math.floor(chars / 1000) * APERTIUM_LIMITS.msPer1000Chars;
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout kills the whole pipeline the script starts, not only the shell.
    const child = spawn(binary, ["-u", mode, file], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    const killAll = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      killAll();
      settle(() => reject(new DigitalEngineError("timeout", `apertium ${mode} took longer than ${limit} ms`)));
    }, limit);
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > APERTIUM_LIMITS.maxOutputBytes) {
        killAll();
        settle(() => reject(new DigitalEngineError("engine", `apertium ${mode}: output too large`)));
      } else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 2000) err += chunk.toString("utf8");
    });
    child.on("error", (error) => settle(() => reject(new DigitalEngineError("engine", `apertium ${mode}: ${error.message}`))));
    child.on("close", (code, signal) =>
      settle(() => {
        const text = Buffer.concat(out).toString("utf8").replace(/\n+$/, "");
        // The script exits 0 even when a stage failed: no output for some input is a failure too.
        if (code === 0 && text.trim() !== "") resolve(text);
        else
          reject(
            new DigitalEngineError(
              "engine",
              `apertium ${mode} exited (${signal ?? code}) without a translation: ${err.trim().slice(0, 300)}`,
            ),
          );
      }),
    );
  });
}

/** Apertium's text, tidied: one space between words (it leaves two where it drops a pronoun). */
const tidy = (text: string) => text.replace(/[ \t]{2,}/g, " ").trim();

/** A paragraph as Apertium gets it: one line, no blank line inside (our separator). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

async function throughModes(modes: readonly string[], input: string): Promise<string> {
  let text = input;
  for (const mode of modes) text = await runApertium(mode, text);
  return text;
}

/** Batches of paragraph indexes, each under maxBatchChars (a longer paragraph is a batch of its own). */
function batches(texts: readonly string[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let size = 0;
  texts.forEach((text, i) => {
    if (text === "") return;
    if (current.length && size + text.length > APERTIUM_LIMITS.maxBatchChars) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(i);
    size += text.length + SEPARATOR.length;
  });
  if (current.length) out.push(current);
  return out;
}

export const apertiumAdapter: TranslationAdapter = {
  name: "apertium",
  supports(language) {
    const modes = MODES[language];
    const { binary, modes: present } = apertiumInstallation();
    return !!modes && !!binary && modes.every((m) => present.has(m));
  },
  async translate(paragraphs, from) {
    const modes = MODES[from];
    if (!modes) throw new DigitalEngineError("engine", `apertium has no pair for ${from}`);
    const texts = paragraphs.map(oneLine);
    const out = texts.map(() => "");
    for (const batch of batches(texts)) {
      const translated = (await throughModes(modes, batch.map((i) => texts[i]).join(SEPARATOR))).split(/\n[ \t]*\n/);
      if (translated.length === batch.length) batch.forEach((i, k) => (out[i] = tidy(translated[k])));
      // The separator did not survive (it always has, measured): one call per paragraph for this batch.
      else for (const i of batch) out[i] = tidy(await throughModes(modes, texts[i]));
    }
    return out;
  },
};
