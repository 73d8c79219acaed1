// The digital jobs (issue 24 item 4): run in the worker, never on a web request. A digital edit goes through the
// proofreader (server/digital/edit) and its tracked and clean documents are stored as files of the owner; a
// translation goes through the translator (server/digital/translate) and its English document is stored the same
// way. Any failure → status failed with failure_reason (the pages say automated-edit-failure /
// digital-translation-failure). Idempotent: a row no longer processing is left alone, and the final write is
// guarded by the same condition (a second attempt after a crash removes the files it made and changes nothing).
import * as z from "zod/mini";
import { defineJob } from "../jobs/define";
import type { AppContext } from "../context";
import { withStoredFile } from "../documents/files";
import { deleteFile, saveUpload } from "../documents/storage";
import { proofreadDocument } from "./edit";
import { translateDocument, translationOptionsFromEnv } from "./translate";
import { DigitalEngineError } from "./types";
import { extOf } from "./upload";

const REASON_MAX = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const reasonOf = (error: unknown): string => {
  if (error instanceof DigitalEngineError) return `${error.reason}: ${error.message}`.slice(0, REASON_MAX);
  const e = error as NodeJS.ErrnoException;
  const code = e?.code === "ENOENT" ? "file-missing" : "engine";
  return `${code}: ${String(e?.message ?? e)}`.slice(0, REASON_MAX);
};

const outputName = (name: string, suffix: string): string => `${name.replace(/\.docx?$/i, "")} (${suffix}).docx`;

export async function runDigitalEdit(ctx: AppContext, editId: string): Promise<"completed" | "failed" | "skipped"> {
  const row = await ctx.db
    .selectFrom("digital_edits as d")
    .innerJoin("files as f", "f.id", "d.file_id")
    .select(["d.id", "d.user_id", "d.status", "d.name", "d.style_of_english", "f.stored_name", "f.deleted_at"])
    .where("d.id", "=", editId)
    .executeTakeFirst();
  if (!row || row.status !== "processing") return "skipped";
  const owner = { ownerUserId: row.user_id };
  const made: string[] = [];
  try {
    if (row.deleted_at) throw new DigitalEngineError("unreadable", "the file was removed");
    const started = Date.now();
    const out = await withStoredFile(ctx, row.stored_name, (path) => proofreadDocument(path, extOf(row.name), row.style_of_english));
    const tracked = await saveUpload(ctx, out.tracked, { ...owner, kind: "digital", originalName: outputName(row.name, "tracked") });
    made.push(tracked.id);
    const clean = await saveUpload(ctx, out.clean, { ...owner, kind: "digital", originalName: outputName(row.name, "edited") });
    made.push(clean.id);
    const done = await ctx.db
      .updateTable("digital_edits")
      .set({
        status: "completed",
        tracked_file_id: tracked.id,
        clean_file_id: clean.id,
        changes: out.changes.length,
        words: out.words,
        failure_reason: null,
        completed_at: new Date(),
      })
      .where("id", "=", editId)
      .where("status", "=", "processing")
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) {
      for (const id of made) await deleteFile(ctx, id, owner);
      return "skipped";
    }
    ctx.logger.info({ editId, words: out.words, changes: out.changes.length, ms: Date.now() - started }, "digital edit done");
    return "completed";
  } catch (error) {
    for (const id of made) await deleteFile(ctx, id, owner).catch(() => undefined);
    ctx.logger.warn({ editId, err: error }, "digital edit failed");
    await ctx.db
      .updateTable("digital_edits")
      .set({ status: "failed", failure_reason: reasonOf(error), completed_at: new Date() })
      .where("id", "=", editId)
      .where("status", "=", "processing")
      .execute();
    return "failed";
  }
}

export async function runDigitalTranslation(ctx: AppContext, orderId: string): Promise<"completed" | "failed" | "skipped"> {
  const row = await ctx.db
    .selectFrom("digital_orders as d")
    .innerJoin("files as f", "f.id", "d.file_id")
    .select(["d.id", "d.user_id", "d.status", "d.name", "d.language", "f.stored_name", "f.deleted_at"])
    .where("d.id", "=", orderId)
    .executeTakeFirst();
  if (!row || row.status !== "processing") return "skipped";
  const owner = { ownerUserId: row.user_id };
  let made: string | null = null;
  try {
    if (row.deleted_at) throw new DigitalEngineError("unreadable", "the file was removed");
    const started = Date.now();
    const out = await withStoredFile(ctx, row.stored_name, (path) =>
      translateDocument(path, extOf(row.name), row.language, translationOptionsFromEnv(ctx.env)),
    );
    const file = await saveUpload(ctx, out.docx, { ...owner, kind: "digital", originalName: outputName(row.name, "English") });
    made = file.id;
    const done = await ctx.db
      .updateTable("digital_orders")
      .set({
        status: "completed",
        output_file_id: file.id,
        engine: out.engine,
        words: out.words,
        failure_reason: null,
        completed_at: new Date(),
      })
      .where("id", "=", orderId)
      .where("status", "=", "processing")
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) {
      await deleteFile(ctx, file.id, owner);
      return "skipped";
    }
    ctx.logger.info({ orderId, words: out.words, engine: out.engine, ms: Date.now() - started }, "digital translation done");
    return "completed";
  } catch (error) {
    if (made) await deleteFile(ctx, made, owner).catch(() => undefined);
    ctx.logger.warn({ orderId, err: error }, "digital translation failed");
    await ctx.db
      .updateTable("digital_orders")
      .set({ status: "failed", failure_reason: reasonOf(error), completed_at: new Date() })
      .where("id", "=", orderId)
      .where("status", "=", "processing")
      .execute();
    return "failed";
  }
}

export const digitalEditJob = defineJob({
  kind: "digital-edit",
  payload: z.object({ editId: z.string().check(z.regex(UUID)) }),
  // The engine's failures are recorded on the row (failed), not retried; a retry is for the database going away.
  maxAttempts: 3,
  handler: async ({ editId }, { ctx }) => {
    await runDigitalEdit(ctx, editId);
  },
});

export const digitalTranslationJob = defineJob({
  kind: "digital-translation",
  payload: z.object({ orderId: z.string().check(z.regex(UUID)) }),
  maxAttempts: 3,
  handler: async ({ orderId }, { ctx }) => {
    await runDigitalTranslation(ctx, orderId);
  },
});

export const digitalJobs = [digitalEditJob, digitalTranslationJob] as const;
