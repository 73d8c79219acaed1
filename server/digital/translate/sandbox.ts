// The sandbox translator (issue 24, ADR 072): TEST MODE only (TRANSLATION_MODE=sandbox), for Chinese (no offline
// engine exists) and wherever Apertium is missing. Deterministic: a small glossary of common words turns into
// English, every other word is kept as written, and each paragraph is marked "[sandbox]". The document it goes
// into starts with the TEST MODE label (adapter.ts TRANSLATION_NOTE.sandbox). Never used in live mode.
import type { TranslationLanguage } from "#common/digital/constants";
import type { TranslationAdapter } from "./adapter";

/** Marks every paragraph the sandbox "translated". */
export const SANDBOX_MARK = "[sandbox]";

const LATIN: Record<"es" | "pt", Record<string, string>> = {
  es: {
    el: "the",
    la: "the",
    los: "the",
    las: "the",
    un: "a",
    una: "a",
    de: "of",
    del: "of the",
    y: "and",
    o: "or",
    en: "in",
    con: "with",
    por: "by",
    para: "for",
    que: "that",
    es: "is",
    son: "are",
    fue: "was",
    se: "itself",
    resultados: "results",
    estudio: "study",
    datos: "data",
    muestra: "sample",
    muestras: "samples",
    análisis: "analysis",
    método: "method",
    métodos: "methods",
    introducción: "introduction",
    conclusión: "conclusion",
    conclusiones: "conclusions",
    pacientes: "patients",
    efecto: "effect",
    tratamiento: "treatment",
    grupo: "group",
    este: "this",
    esta: "this",
    no: "not",
    más: "more",
    entre: "between",
    sobre: "on",
    como: "as",
    también: "also",
  },
  pt: {
    o: "the",
    a: "the",
    os: "the",
    as: "the",
    um: "a",
    uma: "a",
    de: "of",
    do: "of the",
    da: "of the",
    e: "and",
    ou: "or",
    em: "in",
    no: "in the",
    na: "in the",
    com: "with",
    por: "by",
    para: "for",
    que: "that",
    é: "is",
    são: "are",
    foi: "was",
    resultados: "results",
    estudo: "study",
    dados: "data",
    amostra: "sample",
    amostras: "samples",
    análise: "analysis",
    método: "method",
    métodos: "methods",
    introdução: "introduction",
    conclusão: "conclusion",
    pacientes: "patients",
    efeito: "effect",
    tratamento: "treatment",
    grupo: "group",
    este: "this",
    esta: "this",
    não: "not",
    mais: "more",
    entre: "between",
    sobre: "on",
    como: "as",
    também: "also",
  },
};

/** Chinese: longest match first (no spaces between words). */
const CHINESE: Record<string, string> = {
  研究: "research",
  结果: "results",
  方法: "methods",
  数据: "data",
  分析: "analysis",
  样本: "sample",
  患者: "patients",
  治疗: "treatment",
  实验: "experiment",
  结论: "conclusion",
  引言: "introduction",
  摘要: "abstract",
  讨论: "discussion",
  影响: "effect",
  显示: "show",
  表明: "indicate",
  我们: "we",
  本文: "this paper",
  这: "this",
  的: "of",
  和: "and",
  是: "is",
  在: "in",
  了: "",
  与: "and",
  中: "in",
  对: "on",
  不: "not",
  有: "have",
  一个: "a",
  "。": ".",
  "，": ",",
};
const CHINESE_KEYS = Object.keys(CHINESE).sort((a, b) => b.length - a.length);

function latin(text: string, glossary: Record<string, string>): string {
  return text.replace(/\p{L}+/gu, (word) => {
    const english = glossary[word.toLowerCase()];
    if (english === undefined) return word;
    return /^\p{Lu}/u.test(word) ? english[0].toUpperCase() + english.slice(1) : english;
  });
}

function chinese(text: string): string {
  const parts: string[] = [];
  let i = 0;
  let kept = "";
  while (i < text.length) {
    const key = CHINESE_KEYS.find((k) => text.startsWith(k, i));
    if (key === undefined) {
      kept += text[i++];
      continue;
    }
    if (kept) parts.push(kept);
    kept = "";
    if (CHINESE[key]) parts.push(CHINESE[key]);
    i += key.length;
  }
  if (kept) parts.push(kept);
  return parts
    .join(" ")
    .replace(/\s+([.,])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

/** The sandbox's English of one paragraph (deterministic; "" stays ""). */
export function sandboxTranslate(text: string, from: TranslationLanguage): string {
  if (text.trim() === "") return "";
  const english = from === "zh_CN" ? chinese(text) : latin(text, LATIN[from === "pt_BR" ? "pt" : "es"]);
  return `${SANDBOX_MARK} ${english}`;
}

export const sandboxAdapter: TranslationAdapter = {
  name: "sandbox",
  supports: () => true,
  async translate(paragraphs, from) {
    return paragraphs.map((p) => sandboxTranslate(p, from));
  },
};
