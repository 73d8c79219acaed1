// The testimonial photo (issue 25 item 4): JPEG, PNG or WebP recognised by its content (the magic bytes, then
// sharp's reading of the header, which must agree), never by its name or declared type; each side at most
// TESTIMONIAL_PHOTO_MAX_SIDE; re-encoded in its own format with the EXIF orientation applied and every metadata
// block (EXIF, GPS, ICC comments, XMP) left out, scaled to fit TESTIMONIAL_PHOTO_STORED_SIDE.
import sharp from "sharp";
import { TESTIMONIAL_PHOTO_MAX_PIXELS, TESTIMONIAL_PHOTO_MAX_SIDE, TESTIMONIAL_PHOTO_STORED_SIDE } from "#common/testimonials/constants";
import type { TestimonialPhotoType } from "../../db/types-rewards";

/** The type the first bytes say, or null: JPEG FF D8 FF, PNG's 8-byte signature, WebP's RIFF….WEBP. */
export function sniffImageType(head: Uint8Array): TestimonialPhotoType | null {
  const b = head;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length >= 8 && png.every((v, i) => b[i] === v)) return "image/png";
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

const SHARP_FORMAT: Record<TestimonialPhotoType, "jpeg" | "png" | "webp"> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
};
export const PHOTO_EXTENSION: Record<TestimonialPhotoType, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

export type PhotoCheck =
  | { ok: true; type: TestimonialPhotoType; data: Buffer; width: number; height: number }
  | { ok: false; code: "photo-type" | "photo-dimensions" };

// libvips keeps no cache of decoded images between photos (memory goes back as soon as one is done).
sharp.cache(false);

// One photo at a time per process: a decoded photo may hold up to ≈ 200 MB (TESTIMONIAL_PHOTO_MAX_PIXELS × 4 bytes),
// and uploads at the same moment must not multiply that (rule 8: no upload can exhaust memory).
let queue: Promise<unknown> = Promise.resolve();

/** Checks and re-encodes a photo's bytes; `photo-type` for anything but a readable JPEG/PNG/WebP. */
export function processPhoto(input: Buffer): Promise<PhotoCheck> {
  const run = queue.then(() => checkAndReencode(input));
  queue = run.catch(() => undefined);
  return run;
}

async function checkAndReencode(input: Buffer): Promise<PhotoCheck> {
  const type = sniffImageType(input.subarray(0, 16));
  if (!type) return { ok: false, code: "photo-type" };
  const limitInputPixels = TESTIMONIAL_PHOTO_MAX_PIXELS;
  let meta: sharp.Metadata;
  try {
    // The header only (nothing is decoded here): read whatever size it claims, so an oversized photo is told apart
    // from an unreadable one below, and decoding then runs under the pixel limit.
    meta = await sharp(input, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    return { ok: false, code: "photo-type" };
  }
  if (meta.format !== SHARP_FORMAT[type]) return { ok: false, code: "photo-type" };
  if (
    !meta.width ||
    !meta.height ||
    meta.width > TESTIMONIAL_PHOTO_MAX_SIDE ||
    meta.height > TESTIMONIAL_PHOTO_MAX_SIDE ||
    meta.width * meta.height > TESTIMONIAL_PHOTO_MAX_PIXELS
  )
    return { ok: false, code: "photo-dimensions" };
  try {
    const { data, info } = await sharp(input, { limitInputPixels, failOn: "error" })
      .rotate()
      .resize({ width: TESTIMONIAL_PHOTO_STORED_SIDE, height: TESTIMONIAL_PHOTO_STORED_SIDE, fit: "inside", withoutEnlargement: true })
      .toFormat(SHARP_FORMAT[type], type === "image/png" ? {} : { quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, type, data, width: info.width, height: info.height };
  } catch {
    return { ok: false, code: "photo-type" };
  }
}
