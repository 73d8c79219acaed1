// 'Submit a testimonial' (issue 25 item 4, spec 3 §2, §5, §7 POST /api/testimonials/create): the text (required:
// 'Please type in a testimonial before clicking Submit') and one optional photo. The upload rate limit is spent
// before the body is read; the body is capped (Content-Length first, then counted), the photo refused once it
// passes TESTIMONIAL_PHOTO_MAX_BYTES, recognised by content, re-encoded without metadata (photo.ts) and stored
// in the file store under testimonials/<id>.<ext> (ctx.storage, ADR 078: DATA_DIR/testimonials on the local disk,
// mode 0600), its row written after the file.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { fail, invalid, ok, type Result } from "#common/result";
import { TESTIMONIAL_PHOTO_MAX_BYTES, TESTIMONIAL_TEXT_MAX } from "#common/testimonials/constants";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import { MultipartError, type MultipartBody } from "../kernel/multipart";
import { checkUploadRateLimit } from "../documents/storage";
import { invalidateUser } from "../accounts/user-cache";
import { PHOTO_EXTENSION, processPhoto } from "./photo";

export const TESTIMONIAL_TEXT_FIELD = "testimonial";
export const TESTIMONIAL_FILE_FIELD = "testimonialFiles";
const E = (code: string) => `referrals:errors.${code}`;

/** Where photos are kept on the local disk store: DATA_DIR/testimonials/<id>.<ext>. */
export function testimonialsRoot(app: Pick<AppContext, "env">): string {
  return path.join(app.env.DATA_DIR, "testimonials");
}

/** The file store's key of a photo (`photo_path` is `<id>.<ext>`). */
export function testimonialPhotoKey(photoPath: string): string {
  return `testimonials/${photoPath}`;
}

class PhotoTooLarge extends Error {}

/** Reads the form: the text and at most one photo's bytes (refused past the cap, nothing kept). */
async function readForm(body: MultipartBody): Promise<Result<{ text: string; photo: Buffer | null }>> {
  let text = "";
  let photo: Buffer | null = null;
  let files = 0;
  let tooMany = false;
  try {
    await body.read({
      maxBody: TESTIMONIAL_PHOTO_MAX_BYTES + 256 * 1024,
      limits: { files: 1, fileSize: TESTIMONIAL_PHOTO_MAX_BYTES + 1, fields: 8, fieldSize: 64 * 1024, parts: 10 },
      onField(name, value) {
        if (name === TESTIMONIAL_TEXT_FIELD) text = value;
      },
      onFilesLimit() {
        tooMany = true;
      },
      async onFile(part) {
        files++;
        if (part.field !== TESTIMONIAL_FILE_FIELD || files > 1) {
          tooMany ||= files > 1;
          part.stream.resume();
          return;
        }
        // Read as events, never destroyed mid-way: busboy stops keeping bytes past its fileSize limit and the reader's
        // body counter ends the request past maxBody; a part over the cap is only counted, then refused.
        const chunks: Buffer[] = [];
        let size = 0;
        await new Promise<void>((resolve, reject) => {
          part.stream.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size <= TESTIMONIAL_PHOTO_MAX_BYTES) chunks.push(chunk);
          });
          part.stream.once("end", resolve);
          part.stream.once("error", reject);
          part.stream.once("close", resolve);
        });
        if (size > TESTIMONIAL_PHOTO_MAX_BYTES || (part.stream as { truncated?: boolean }).truncated) throw new PhotoTooLarge();
        if (size > 0) photo = Buffer.concat(chunks);
      },
    });
  } catch (error) {
    if (error instanceof PhotoTooLarge) return invalid({ [TESTIMONIAL_FILE_FIELD]: E("photo-too-large") });
    if (error instanceof MultipartError) {
      if (error.code === "payload-too-large") return invalid({ [TESTIMONIAL_FILE_FIELD]: E("photo-too-large") }, "payload-too-large");
      return fail("invalid-request");
    }
    throw error;
  }
  if (tooMany) return invalid({ [TESTIMONIAL_FILE_FIELD]: E("photo-one") });
  return ok({ text: text.trim(), photo });
}

/**
 * Saves the signed-in user's testimonial. Errors: `sign-in-required`, `too-many-requests` (before the body is
 * read), `invalid-request` (not a multipart form), field errors on `testimonial` (required, too long) and
 * `testimonialFiles` (photo-type, photo-too-large, photo-dimensions, photo-one).
 */
export async function submitTestimonial(scope: Scope, body: MultipartBody): Promise<Result<{ id: string; photo: boolean }>> {
  const userId = scope.userId;
  if (userId === null) return fail("sign-in-required");
  if (!body.isMultipart) return fail("invalid-request");
  const limited = await checkUploadRateLimit(scope.app, { userId, ip: scope.ip });
  if (!limited.allowed) return fail("too-many-requests", { retryAfterSeconds: limited.retryAfterSeconds });
  const form = await readForm(body);
  if (!form.ok) return form;
  const { text, photo } = form.value;
  const errors: Record<string, string> = {};
  if (!text) errors[TESTIMONIAL_TEXT_FIELD] = E("testimonial-required");
  else if ([...text].length > TESTIMONIAL_TEXT_MAX) errors[TESTIMONIAL_TEXT_FIELD] = E("testimonial-too-long");
  const checked = photo ? await processPhoto(photo) : null;
  if (checked && !checked.ok) errors[TESTIMONIAL_FILE_FIELD] = E(checked.code);
  // The text goes back with the refusal, so the form is shown again with it.
  if (Object.keys(errors).length) return { ...invalid(errors), details: { text } };

  const id = randomUUID();
  let relative: string | null = null;
  if (checked?.ok) {
    relative = `${id}.${PHOTO_EXTENSION[checked.type]}`;
    await scope.app.storage.put(testimonialPhotoKey(relative), Readable.from([checked.data]), { contentType: checked.type });
  }
  try {
    await scope.app.db
      .insertInto("testimonials")
      .values({
        id,
        user_id: userId,
        text,
        photo_path: relative,
        photo_type: checked?.ok ? checked.type : null,
        photo_bytes: checked?.ok ? checked.data.length : null,
      })
      .execute();
  } catch (error) {
    if (relative) await scope.app.storage.delete(testimonialPhotoKey(relative)).catch(() => undefined);
    throw error;
  }
  // The account view's submittedTestimonial (cached) changes.
  await invalidateUser(scope.app, userId);
  return ok({ id, photo: Boolean(relative) });
}

/** Whether the user has submitted a testimonial (spec 3 §3 `submittedTestimonial`). */
export async function submittedTestimonial(scope: Scope): Promise<boolean> {
  if (scope.userId === null) return false;
  const row = await scope.app.db.selectFrom("testimonials").select("id").where("user_id", "=", scope.userId).limit(1).executeTakeFirst();
  return Boolean(row);
}
