import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff } from "../helpers/factories";
import { makeDoc, makeDocx, makeExe, makeOdt, makeOtherCfb, makePdf, makePng, makeRtf, makeXlsx, makeZip } from "../helpers/fixtures";
import {
  saveUpload,
  parseUploadRequest,
  openFile,
  listFiles,
  claimDraftFiles,
  deleteFile,
  assignFilesToOrderForm,
  checkUploadRateLimit,
  sweepTempUploads,
  downloadHeaders,
  fileResponse,
  sanitizeFileName,
  UploadError,
  ANALYSE_JOB,
  type SaveUploadOptions,
  type StoredFile,
} from "../../server/documents/storage";
import { analyseFile, documentDetails } from "../../server/documents/analysis";
import { countWords, detectLanguage, rtfToText } from "../../server/documents/text";
import { createWorker, startJobWorker } from "../../server/jobs";
import { portalJobHandlers } from "../../server/job-handlers";
import { multipartBody } from "../../server/http/multipart";

let t: TestContext;
let dataDir: string;
let researcherId: number;
let staffId: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-docs-"));
  t = await createTestContext({ DATA_DIR: dataDir });
  researcherId = (await createResearcher(t.ctx)).id;
  staffId = (await createStaff(t.ctx)).id;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const SAMPLES = {
  en:
    "Climate change is expected to alter the distribution of many plant species across mountain regions. In this study, we collected vegetation data from two hundred plots located along an elevation gradient in the central Andes between 2015 and 2022. " +
    "Our analysis shows that species richness declined at lower elevations while several drought tolerant species expanded their range upward by an average of forty meters. These shifts were strongly associated with rising summer temperatures and reduced soil moisture. " +
    "We discuss the implications of these findings for conservation planning and suggest that long term monitoring networks are essential for detecting early signals of ecological change in vulnerable high mountain ecosystems.",
  pt:
    "As mudanças climáticas devem alterar a distribuição de muitas espécies de plantas nas regiões montanhosas. Neste estudo, coletamos dados de vegetação em duzentas parcelas localizadas ao longo de um gradiente de altitude nos Andes centrais entre 2015 e 2022. " +
    "Nossa análise mostra que a riqueza de espécies diminuiu nas altitudes mais baixas, enquanto várias espécies tolerantes à seca expandiram sua distribuição para cima, em média quarenta metros. Essas mudanças estiveram fortemente associadas ao aumento das temperaturas de verão e à redução da umidade do solo. " +
    "Discutimos as implicações desses resultados para o planejamento da conservação e sugerimos que redes de monitoramento de longo prazo são essenciais para detectar sinais precoces de mudança ecológica em ecossistemas de alta montanha.",
  es:
    "Se espera que el cambio climático altere la distribución de muchas especies de plantas en las regiones montañosas. En este estudio, recopilamos datos de vegetación de doscientas parcelas ubicadas a lo largo de un gradiente de altitud en los Andes centrales entre 2015 y 2022. " +
    "Nuestro análisis muestra que la riqueza de especies disminuyó en las altitudes más bajas, mientras que varias especies tolerantes a la sequía ampliaron su área de distribución hacia arriba en un promedio de cuarenta metros. Estos cambios estuvieron fuertemente asociados con el aumento de las temperaturas de verano y la reducción de la humedad del suelo. " +
    "Discutimos las implicaciones de estos hallazgos para la planificación de la conservación y sugerimos que las redes de monitoreo a largo plazo son esenciales para detectar señales tempranas de cambio ecológico en los ecosistemas de alta montaña.",
  zh:
    "气候变化预计将改变山区许多植物物种的分布。在本研究中，我们于2015年至2022年间在安第斯山脉中部沿海拔梯度设置的两百个样地中收集了植被数据。" +
    "分析结果表明，低海拔地区的物种丰富度有所下降，而一些耐旱物种的分布范围平均向上扩展了四十米。这些变化与夏季气温升高和土壤湿度降低密切相关。" +
    "我们讨论了这些发现对保护规划的意义，并指出长期监测网络对于发现脆弱高山生态系统中生态变化的早期信号至关重要。",
  ja:
    "気候変動は山岳地域における多くの植物種の分布を変化させると予想されている。本研究では、2015年から2022年にかけて、アンデス山脈中部の標高勾配に沿って設置した二百か所の調査区で植生データを収集した。" +
    "解析の結果、低標高域では種の豊かさが減少した一方で、いくつかの乾燥耐性種は分布域を平均四十メートル上方へ拡大していることが明らかになった。これらの変化は夏季気温の上昇と土壌水分の減少と強く関連していた。" +
    "本研究の結果が保全計画に与える意味について議論し、脆弱な高山生態系における生態学的変化の初期兆候を検出するためには長期的なモニタリング網が不可欠であることを示唆する。",
};

const draft = (name: string) => `draft-${name}-${Math.random().toString(36).slice(2)}`;
const asUser = (kind: SaveUploadOptions["kind"] = "main") => ({ ownerUserId: researcherId, kind });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "accepted";
  } catch (error) {
    if (error instanceof UploadError) return error.code;
    throw error;
  }
}

function tmpLeftovers(): string[] {
  const dir = path.join(dataDir, "files", "tmp");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function runJobs() {
  const worker = createWorker(t.ctx, portalJobHandlers(), { maintenanceEveryMs: 0 });
  let n = 0;
  while (await worker.runOnce()) n++;
  return n;
}

describe("words and languages", () => {
  it("counts English words by spaces and punctuation", () => {
    expect(countWords("The quick brown fox jumps over the lazy dog.")).toBe(9);
    expect(countWords("state-of-the-art methods don't fail; e.g. 3.14 is π.")).toBe(8);
    expect(countWords("  \n\t — , . ; ")).toBe(0);
    expect(countWords("")).toBe(0);
    expect(countWords(SAMPLES.en)).toBe(108);
    expect(countWords(SAMPLES.en)).toBe(SAMPLES.en.split(/\s+/).length);
  });

  it("counts Chinese and Japanese one word per character, punctuation excluded", () => {
    expect(countWords("我们研究了蛋白质。")).toBe(8);
    expect(countWords("これはテストです。")).toBe(8);
    expect(countWords("データー")).toBe(4);
    // 2015年至2022年间: two numbers plus four characters.
    expect(countWords("2015年至2022年间")).toBe(6);
  });

  it("counts mixed text: CJK characters plus Latin words", () => {
    expect(countWords("本研究使用了CRISPR技术 and 3 samples。")).toBe(12);
    expect(countWords("Results 结果: p < 0.05")).toBe(5);
  });

  it("detects en, zh, pt, es and ja from about a hundred words", () => {
    for (const [code, text] of Object.entries(SAMPLES)) expect(detectLanguage(text), code).toBe(code);
  });

  it("is unsure (null) about short text", () => {
    expect(detectLanguage("Results and discussion")).toBeNull();
    expect(detectLanguage("结果")).toBeNull();
    expect(detectLanguage("")).toBeNull();
  });

  it("reads RTF text without control words, with escapes decoded", () => {
    const rtf = "{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}{\\*\\generator Word;}\\f0 Caf\\'e9 na\\u239?ve \\{x\\}\\par Second line\\tab end}";
    expect(rtfToText(rtf)).toBe("Café naïve {x}\nSecond line\tend");
    expect(rtfToText(makeRtf("中文 text").toString("latin1")).trim()).toBe("中文 text");
  });
});

describe("uploads are checked by content", () => {
  it("accepts real files and stores them under random names outside any public folder", async () => {
    const docx = await makeDocx(SAMPLES.en);
    const file = await saveUpload(t.ctx, docx, { ...asUser(), originalName: "../../etc/My paper.docx" });
    expect(file).toMatchObject({
      kind: "main",
      originalName: "My paper.docx",
      sizeBytes: docx.length,
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      sha256: createHash("sha256").update(docx).digest("hex"),
      ownerUserId: researcherId,
    });
    const row = await t.ctx.db.selectFrom("files").selectAll().where("id", "=", file.id).executeTakeFirstOrThrow();
    expect(row.stored_name).toMatch(/^[a-f0-9]{32}$/);
    const onDisk = path.join(dataDir, "files", row.stored_name.slice(0, 2), row.stored_name);
    expect(fs.readFileSync(onDisk).equals(docx)).toBe(true);

    const accepted: [Buffer, string][] = [
      [await makePdf(SAMPLES.en), "paper.pdf"],
      [makeDoc(SAMPLES.en), "paper.doc"],
      [makeOdt(SAMPLES.en), "paper.odt"],
      [makeRtf(SAMPLES.en), "paper.rtf"],
      [Buffer.from(SAMPLES.zh, "utf8"), "paper.txt"],
      [Buffer.from("\\documentclass{article}\\begin{document}Hello\\end{document}", "utf8"), "paper.TEX"],
      [makeXlsx(), "data.xlsx"],
      [makeZip({ "a.txt": "hello" }), "bundle.zip"],
      [docx, "bundle.zip"],
      [makePng(), "figure.png"],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]), "photo.JPG"],
      [Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), "scan.tif"],
      [Buffer.from('<?xml version="1.0"?>\n<!-- chart -->\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'), "chart.svg"],
      [Buffer.from("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n"), "figure.eps"],
    ];
    for (const [content, name] of accepted)
      expect(await codeOf(saveUpload(t.ctx, content, { ...asUser("figure"), originalName: name })), name).toBe("accepted");
  });

  it("refuses renamed files and types the config does not allow", async () => {
    const docx = await makeDocx("A real document.");
    const pdf = await makePdf("A real PDF.");
    const refused: [Buffer, string][] = [
      [makeExe(), "paper.docx"],
      [pdf, "paper.docx"],
      [docx, "paper.pdf"],
      [docx, "paper.doc"],
      [makeXlsx(), "paper.docx"],
      [makeZip({ "word/document.xml": "<w:document/>" }), "paper.docx"],
      [makeDoc("old word"), "sheet.xls"],
      [makeDoc("old word"), "paper.docx"],
      [makeOtherCfb(), "paper.doc"],
      [makePng(), "figure.jpg"],
      [Buffer.from("caf\xe9 latin-1 text", "latin1"), "notes.txt"],
      [Buffer.from("plain text, not RTF"), "paper.rtf"],
      [Buffer.from("<html><script>alert(1)</script></html>"), "figure.svg"],
      [makeExe(), "setup.exe"],
      [docx, "macro.docm"],
      [docx, "no-extension"],
    ];
    for (const [content, name] of refused)
      expect(await codeOf(saveUpload(t.ctx, content, { ...asUser(), originalName: name })), name).toBe("file-type-not-allowed");

    const before = (await t.ctx.config.snapshot()).config.allowedFileTypes;
    await t.ctx.config.setConfig(
      "allowedFileTypes",
      before.filter((e) => e !== "pdf"),
    );
    try {
      expect(await codeOf(saveUpload(t.ctx, pdf, { ...asUser(), originalName: "paper.pdf" }))).toBe("file-type-not-allowed");
    } finally {
      await t.ctx.config.setConfig("allowedFileTypes", before);
    }
    expect(await codeOf(saveUpload(t.ctx, pdf, { ...asUser(), originalName: "paper.pdf" }))).toBe("accepted");
  });

  it("refuses empty and too large files and keeps nothing of them", async () => {
    expect(await codeOf(saveUpload(t.ctx, Buffer.alloc(0), { ...asUser(), originalName: "empty.txt" }))).toBe("empty-file");
    const big = Buffer.from("word ".repeat(400));
    expect(await codeOf(saveUpload(t.ctx, big, { ...asUser(), originalName: "big.txt", limits: { maxFileBytes: 1000 } }))).toBe(
      "file-too-large",
    );
    expect(await codeOf(saveUpload(t.ctx, new Blob([big]), { ...asUser(), originalName: "big.txt", limits: { maxFileBytes: 1000 } }))).toBe(
      "file-too-large",
    );
    // A stream is cut off at the limit too.
    async function* chunks() {
      for (let i = 0; i < 10; i++) yield Buffer.from("x".repeat(300));
    }
    expect(await codeOf(saveUpload(t.ctx, chunks(), { ...asUser(), originalName: "stream.txt", limits: { maxFileBytes: 1000 } }))).toBe(
      "file-too-large",
    );
    expect(await codeOf(saveUpload(t.ctx, big, { ...asUser(), originalName: "ok.txt", limits: { maxFileBytes: 2000 } }))).toBe("accepted");
    expect(tmpLeftovers()).toEqual([]);
  });

  it("parses a multipart request: kinds by field, refusals by file, too many files", async () => {
    const form = new FormData();
    form.append("intent", "upload");
    form.append("mainFiles", new File([new Uint8Array(await makeDocx(SAMPLES.en))], "manuscript.docx"));
    form.append("figureFiles", new File([new Uint8Array(makePng())], "fig1.png"));
    form.append("figureFiles", new File([new Uint8Array(makeExe())], "fig2.png"));
    form.append("tableFiles", new File([], ""));
    form.append("tableReferenceFiles", new File([Buffer.from("a,b\n1,2\n")], "table.txt"));
    const draftKey = draft("multipart");
    const request = new Request("http://portal.test/upload", { method: "POST", body: form });
    const result = await parseUploadRequest(t.ctx, multipartBody(request), { draftKey, limits: { maxFiles: 4 } });
    expect(result.fields).toEqual({ intent: "upload" });
    expect(result.files.map((f) => [f.originalName, f.kind])).toEqual([
      ["manuscript.docx", "main"],
      ["fig1.png", "figure"],
      ["table.txt", "table_reference"],
    ]);
    expect(result.rejected).toEqual([{ field: "figureFiles", name: "fig2.png", code: "file-type-not-allowed" }]);
    expect(result.files.every((f) => f.draftKey === draftKey && f.ownerUserId === null)).toBe(true);

    const many = new FormData();
    for (let i = 0; i < 5; i++) many.append("files", new File([`note ${i}`], `note${i}.txt`));
    const limited = await parseUploadRequest(
      t.ctx,
      multipartBody(new Request("http://portal.test/upload", { method: "POST", body: many })),
      {
        ownerUserId: staffId,
        limits: { maxFiles: 3 },
      },
    );
    expect(limited.files.map((f) => f.originalName)).toEqual(["note0.txt", "note1.txt", "note2.txt"]);
    expect(limited.rejected).toEqual([
      { field: "files", name: "note3.txt", code: "too-many-files" },
      { field: "files", name: "note4.txt", code: "too-many-files" },
    ]);

    expect(
      await codeOf(
        parseUploadRequest(
          t.ctx,
          multipartBody(
            new Request("http://portal.test/upload", {
              method: "POST",
              body: "x=1",
              headers: { "content-type": "application/x-www-form-urlencoded" },
            }),
          ),
          { draftKey },
        ),
      ),
    ).toBe("invalid-request");
    // A body cut off half way keeps nothing, not even the files that arrived whole before the cut.
    const brokenKey = draft("broken");
    const part = (name: string, body: string) =>
      `--xyz\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`;
    const broken = new Request("http://portal.test/upload", {
      method: "POST",
      body: part("whole.txt", "complete file") + part("cut.txt", "hel").slice(0, -2),
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
    });
    expect(await codeOf(parseUploadRequest(t.ctx, multipartBody(broken), { draftKey: brokenKey }))).toBe("invalid-request");
    expect(await listFiles(t.ctx, { draftKey: brokenKey })).toEqual([]);
    const brokenRows = await t.ctx.db
      .selectFrom("files")
      .select(["original_name", "deleted_at"])
      .where("draft_key", "=", brokenKey)
      .execute();
    // The whole file is either never recorded (its stream still unread when the body broke is ended with the error,
    // issue 20 §1) or recorded and removed again: no live row either way.
    expect(brokenRows.every((r) => r.deleted_at !== null)).toBe(true);
    // A body larger than maxFiles × maxFileBytes (plus some room for fields) is cut off.
    const hugeKey = draft("huge");
    const huge = new Request("http://portal.test/upload", {
      method: "POST",
      body: part("small.txt", "fine") + part("big.txt", "x".repeat(1_200_000)) + "--xyz--\r\n",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
    });
    expect(
      await codeOf(parseUploadRequest(t.ctx, multipartBody(huge), { draftKey: hugeKey, limits: { maxFiles: 2, maxFileBytes: 100 } })),
    ).toBe("file-too-large");
    expect(await listFiles(t.ctx, { draftKey: hugeKey })).toEqual([]);
    expect(tmpLeftovers()).toEqual([]);
  });

  it("sweeps partial uploads left by a process that died", async () => {
    const dir = path.join(dataDir, "files", "tmp");
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, "0123456789abcdef0123456789abcdef.part");
    const fresh = path.join(dir, "fedcba9876543210fedcba9876543210.part");
    fs.writeFileSync(stale, "half");
    fs.writeFileSync(fresh, "half");
    const old = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(stale, old, old);
    expect(await sweepTempUploads(t.ctx)).toBe(1);
    expect(tmpLeftovers()).toEqual([path.basename(fresh)]);
    fs.rmSync(fresh);
  });

  it("limits uploads per user or address", async () => {
    const who = { userId: 999_001, ip: "10.1.2.3" };
    for (let i = 0; i < 3; i++) expect((await checkUploadRateLimit(t.ctx, who, { limit: 3 })).allowed).toBe(true);
    const blocked = await checkUploadRateLimit(t.ctx, who, { limit: 3 });
    expect(blocked.allowed).toBe(false);
    expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect((await checkUploadRateLimit(t.ctx, { ip: "10.1.2.3" }, { limit: 3 })).allowed).toBe(true);
  });

  it("cleans file names and sends downloads as attachments", () => {
    expect(sanitizeFileName("C:\\Users\\me\\paper\u202e.docx")).toBe("paper.docx");
    expect(sanitizeFileName("")).toBe("file");
    expect(sanitizeFileName(`${"a".repeat(300)}.docx`)).toHaveLength(200);
    const headers = downloadHeaders({ originalName: 'résumé "x".pdf', contentType: "application/pdf", sizeBytes: 10 });
    expect(headers["Content-Disposition"]).toBe(`attachment; filename="r_sum_ _x_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22x%22.pdf`);
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
  });
});

describe("ownership", () => {
  let mine: StoredFile;
  let drafted: StoredFile;
  let draftKey: string;
  beforeAll(async () => {
    mine = await saveUpload(t.ctx, Buffer.from("my notes"), {
      ownerUserId: researcherId,
      kind: "main_reference",
      originalName: "notes.txt",
    });
    draftKey = draft("owner");
    drafted = await saveUpload(t.ctx, await makeDocx("Draft manuscript text."), { draftKey, kind: "main", originalName: "draft.docx" });
  });

  it("opens a file only for its owner or its draft", async () => {
    const opened = await openFile(t.ctx, mine.id, { ownerUserId: researcherId });
    expect(opened?.originalName).toBe("notes.txt");
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("my notes");
    const response = fileResponse(opened!);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="notes.txt"/);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("my notes");
    expect(await openFile(t.ctx, mine.id, { ownerUserId: staffId })).toBeNull();
    expect(await openFile(t.ctx, mine.id, { draftKey })).toBeNull();
    expect(await openFile(t.ctx, mine.id, {})).toBeNull();
    expect(await openFile(t.ctx, "not-a-uuid", { ownerUserId: researcherId })).toBeNull();

    expect((await openFile(t.ctx, drafted.id, { draftKey }))?.id).toBe(drafted.id);
    expect(await openFile(t.ctx, drafted.id, { draftKey: draft("someone-else") })).toBeNull();
    expect(await openFile(t.ctx, drafted.id, { ownerUserId: staffId })).toBeNull();
    // Signed in while the draft is not yet claimed: the draft's files are still theirs.
    expect((await openFile(t.ctx, drafted.id, { ownerUserId: staffId, draftKey }))?.id).toBe(drafted.id);
  });

  it("hands a draft's files to the user who signs in, and no longer to the bare draft key", async () => {
    expect(await claimDraftFiles(t.ctx, draftKey, researcherId)).toBe(1);
    expect(await claimDraftFiles(t.ctx, draftKey, staffId)).toBe(0);
    expect((await openFile(t.ctx, drafted.id, { ownerUserId: researcherId }))?.ownerUserId).toBe(researcherId);
    expect(await openFile(t.ctx, drafted.id, { draftKey })).toBeNull();
    expect(await openFile(t.ctx, drafted.id, { ownerUserId: staffId, draftKey })).toBeNull();
    expect((await listFiles(t.ctx, { ownerUserId: researcherId })).map((f) => f.id)).toEqual(expect.arrayContaining([mine.id, drafted.id]));
    expect(await listFiles(t.ctx, { draftKey })).toEqual([]);
    expect(await claimDraftFiles(t.ctx, "", researcherId)).toBe(0);
  });

  it("attaches files to an order form and deletes them only for their owner", async () => {
    expect(await assignFilesToOrderForm(t.ctx, [mine.id], "OF-1", { ownerUserId: staffId })).toBe(0);
    expect(await assignFilesToOrderForm(t.ctx, [mine.id, drafted.id], "OF-1", { ownerUserId: researcherId })).toBe(2);
    expect((await listFiles(t.ctx, { ownerUserId: researcherId }, { orderFormId: "OF-1" })).map((f) => f.id).sort()).toEqual(
      [mine.id, drafted.id].sort(),
    );
    const opened = await openFile(t.ctx, mine.id, { ownerUserId: researcherId });
    expect(await deleteFile(t.ctx, mine.id, { ownerUserId: staffId })).toBe(false);
    expect(await deleteFile(t.ctx, mine.id, { ownerUserId: researcherId })).toBe(true);
    expect(await deleteFile(t.ctx, mine.id, { ownerUserId: researcherId })).toBe(false);
    expect(await openFile(t.ctx, mine.id, { ownerUserId: researcherId })).toBeNull();
    expect(await t.ctx.storage.stat(opened!.key)).toBeNull();
  });
});

describe("analysis", () => {
  it("enqueues the analysis of a main file in the same transaction as its row, not for figures", async () => {
    const main = await saveUpload(t.ctx, await makeDocx(SAMPLES.en), { ...asUser("main"), originalName: "m.docx" });
    const figure = await saveUpload(t.ctx, makePng(), { ...asUser("figure"), originalName: "f.png" });
    const jobs = await t.ctx.db.selectFrom("jobs").select(["payload", "status"]).where("kind", "=", ANALYSE_JOB).execute();
    const payloads = jobs.map((j) => (j.payload as { fileId: string }).fileId);
    expect(payloads).toContain(main.id);
    expect(payloads).not.toContain(figure.id);
    expect(await t.ctx.db.selectFrom("document_analyses").select("status").where("file_id", "=", main.id).executeTakeFirst()).toEqual({
      status: "pending",
    });
  });

  it("reads .docx, .doc, .pdf, .odt, .rtf and .txt", async () => {
    const cases: [Buffer, string, string][] = [
      [await makeDocx(SAMPLES.en), "a.docx", "en"],
      [makeDoc(SAMPLES.es), "a.doc", "es"],
      [await makePdf(SAMPLES.en), "a.pdf", "en"],
      [makeOdt(SAMPLES.pt), "a.odt", "pt"],
      [makeRtf(SAMPLES.zh), "a.rtf", "zh"],
      [Buffer.from(SAMPLES.ja, "utf8"), "a.txt", "ja"],
    ];
    const languageIds = Object.fromEntries(
      (await t.ctx.db.selectFrom("languages").select(["id", "code"]).execute()).map((l) => [l.code, l.id]),
    );
    for (const [content, name, lang] of cases) {
      const file = await saveUpload(t.ctx, content, { ...asUser("main"), originalName: name });
      const result = await analyseFile(t.ctx, file.id);
      const text = lang === "en" ? SAMPLES.en : SAMPLES[lang as keyof typeof SAMPLES];
      expect(result, name).toMatchObject({
        status: "done",
        languageCode: lang,
        languageId: languageIds[lang],
        wordCount: countWords(text),
      });
    }
    expect(languageIds).toMatchObject({ en: 1, zh: 2, ja: 3, pt: 4, es: 5 });
  });

  it("records a file it cannot read as failed", async () => {
    const figure = await saveUpload(t.ctx, makePng(), { ...asUser("main"), originalName: "scan.png" });
    expect(await analyseFile(t.ctx, figure.id)).toMatchObject({ status: "failed", wordCount: null });
    const row = await t.ctx.db.selectFrom("document_analyses").selectAll().where("file_id", "=", figure.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/^unsupported-type/);
  });

  // The order form polls 5 × 1 s (spec 1); how fast analysis is belongs to the benchmark, not to a timed test
  // (a loaded 2-core CI machine missed 5 s once): here the in-process worker must do it, with a generous bound.
  it("is done by the in-process worker that the web process runs", async () => {
    const worker = startJobWorker(t.ctx, portalJobHandlers(), { pollMs: 100 });
    try {
      const file = await saveUpload(t.ctx, await makeDocx(SAMPLES.pt), { ...asUser("main"), originalName: "inline.docx" });
      const started = Date.now();
      let details = await documentDetails(t.ctx, [file.id]);
      while (!details.documentDetailsReceived && Date.now() - started < 30_000) {
        await new Promise((r) => setTimeout(r, 100));
        details = await documentDetails(t.ctx, [file.id]);
      }
      expect(details).toEqual({
        documentDetailsReceived: true,
        manuscriptLanguageId: 4,
        wordCount: countWords(SAMPLES.pt),
        analysisFailed: false,
        analysisError: null,
      });
    } finally {
      await worker.stop();
    }
  });

  it("reports document details over the main files once all are analysed by the worker", async () => {
    const draftKey = draft("details");
    const a = await saveUpload(t.ctx, await makeDocx(SAMPLES.zh), { draftKey, kind: "main", originalName: "part1.docx" });
    const b = await saveUpload(t.ctx, Buffer.from(SAMPLES.zh.slice(0, 40)), { draftKey, kind: "main", originalName: "part2.txt" });
    const fig = await saveUpload(t.ctx, makePng(), { draftKey, kind: "figure", originalName: "fig.png" });
    const ids = [a.id, b.id, fig.id];
    expect(await documentDetails(t.ctx, ids)).toEqual({
      documentDetailsReceived: false,
      manuscriptLanguageId: null,
      wordCount: null,
      analysisFailed: false,
      analysisError: null,
    });
    expect(await runJobs()).toBeGreaterThanOrEqual(2);
    expect(await documentDetails(t.ctx, ids)).toEqual({
      documentDetailsReceived: true,
      manuscriptLanguageId: 2,
      wordCount: countWords(SAMPLES.zh) + countWords(SAMPLES.zh.slice(0, 40)),
      analysisFailed: false,
      analysisError: null,
    });
    const jobs = await t.ctx.db.selectFrom("jobs").select("status").where("kind", "=", ANALYSE_JOB).execute();
    expect(jobs.every((j) => j.status === "done")).toBe(true);
    // Figures alone, unknown ids and nothing give no details.
    expect((await documentDetails(t.ctx, [fig.id, "nope"])).documentDetailsReceived).toBe(false);
    expect((await documentDetails(t.ctx, [])).documentDetailsReceived).toBe(false);
    // A deleted main file no longer counts.
    await deleteFile(t.ctx, b.id, { draftKey });
    expect((await documentDetails(t.ctx, ids)).wordCount).toBe(countWords(SAMPLES.zh));
  });
});
