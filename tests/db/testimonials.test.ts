// Testimonials on a real database (issue 25 item 4, ADR 076): the text is required; a photo is recognised by its
// content (a PNG named .jpg is a PNG, a text file named .png is refused), size- and dimension-limited, re-encoded
// without its EXIF (read back with sharp) and stored under DATA_DIR; staff list, view, approve and reject (audited);
// a researcher may not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff, scopeFor, type TestUser } from "../helpers/factories";
import { multipartBody } from "../../server/http/multipart";
import type { Scope } from "../../server/scope";
import { getUserView } from "../../server/accounts/account";
import {
  listTestimonials,
  reviewTestimonial,
  staffTestimonial,
  submitTestimonial,
  submittedTestimonial,
  testimonialPhoto,
  testimonialsRoot,
} from "../../server/testimonials";

let t: TestContext;
let researcher: TestUser;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestContext({ CONFIG_RATE_LIMITS: JSON.stringify({}) });
  researcher = await createResearcher(t.ctx);
  staff = await createStaff(t.ctx);
});
afterAll(async () => t?.close());

function staffScope(): Scope {
  const s = scopeFor(t.ctx, staff);
  return { ...s, session: { user: { id: staff.id, isStaff: true, isAdmin: false }, impersonatorId: null } as unknown as Scope["session"] };
}

function body(text: string | null, file?: { bytes: Uint8Array | Buffer; name: string; type?: string }) {
  const form = new FormData();
  if (text !== null) form.set("testimonial", text);
  if (file)
    form.set("testimonialFiles", new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }));
  return multipartBody(new Request("http://test/api/testimonials/create", { method: "POST", body: form }));
}

async function photo(format: "png" | "jpeg" | "webp", width = 40, height = 30, exif = false): Promise<Buffer> {
  let img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).toFormat(format);
  if (exif) img = img.withExif({ IFD0: { Artist: "Secret Author", Copyright: "GPS 51.5N" }, IFD2: {} }).withMetadata({ orientation: 6 });
  return img.toBuffer();
}

describe("submitting", () => {
  it("requires the text", async () => {
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("   "));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.fieldErrors).toEqual({ testimonial: "referrals:errors.testimonial-required" });
    expect(await submittedTestimonial(scopeFor(t.ctx, researcher))).toBe(false);
  });

  it("saves text alone", async () => {
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Great editing, thank you."));
    expect(r.ok && r.value.photo).toBe(false);
    expect(await submittedTestimonial(scopeFor(t.ctx, researcher))).toBe(true);
    expect((await getUserView(t.ctx, researcher.id))?.submittedTestimonial).toBe(true);
  });

  it("takes a PNG named .jpg as a PNG and stores it re-encoded", async () => {
    const r = await submitTestimonial(
      scopeFor(t.ctx, researcher),
      body("With a photo", { bytes: await photo("png"), name: "me.jpg", type: "image/jpeg" }),
    );
    expect(r.ok).toBe(true);
    const row = await t.ctx.db
      .selectFrom("testimonials")
      .selectAll()
      .where("id", "=", r.ok ? r.value.id : "")
      .executeTakeFirstOrThrow();
    expect(row.photo_type).toBe("image/png");
    expect(row.photo_path).toMatch(/\.png$/);
    const stored = fs.readFileSync(path.join(testimonialsRoot(t.ctx), row.photo_path!));
    expect((await sharp(stored).metadata()).format).toBe("png");
    expect(row.photo_bytes).toBe(stored.length);
  });

  it("refuses a text file named .png, and keeps nothing", async () => {
    const before = await t.ctx.db
      .selectFrom("testimonials")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const r = await submitTestimonial(
      scopeFor(t.ctx, researcher),
      body("Fake photo", { bytes: Buffer.from("hello, not an image"), name: "me.png", type: "image/png" }),
    );
    expect(!r.ok && r.fieldErrors).toEqual({ testimonialFiles: "referrals:errors.photo-type" });
    const after = await t.ctx.db
      .selectFrom("testimonials")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("refuses a truncated image whose header is right", async () => {
    const png = await photo("png");
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Broken", { bytes: png.subarray(0, 30), name: "a.png" }));
    expect(!r.ok && r.fieldErrors.testimonialFiles).toBe("referrals:errors.photo-type");
  });

  it("refuses a photo over 5 MB before storing anything", async () => {
    const big = Buffer.concat([await photo("png"), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Big", { bytes: big, name: "big.png" }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.fieldErrors.testimonialFiles).toBe("referrals:errors.photo-too-large");
  });

  it("refuses a huge declared size (a header claiming 20000 px) without decoding it", async () => {
    // A valid PNG header whose IHDR says 20000 × 20000.
    const png = await photo("png", 2, 2);
    const huge = Buffer.from(png);
    huge.writeUInt32BE(20000, 16);
    huge.writeUInt32BE(20000, 20);
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Huge", { bytes: huge, name: "huge.png" }));
    expect(r.ok).toBe(false);
    expect(["referrals:errors.photo-dimensions", "referrals:errors.photo-type"]).toContain(r.ok ? null : r.fieldErrors.testimonialFiles);
  });

  it("refuses a real 8000 × 7000 PNG: each side is allowed, its 56 MP are not (what decoding holds stays bounded)", async () => {
    const wide = await sharp({ create: { width: 8000, height: 7000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(wide.length).toBeLessThan(5 * 1024 * 1024);
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Wide", { bytes: wide, name: "wide.png" }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.fieldErrors.testimonialFiles).toBe("referrals:errors.photo-dimensions");
  });

  it("strips EXIF and applies the orientation", async () => {
    const jpeg = await photo("jpeg", 40, 30, true);
    const before = await sharp(jpeg).metadata();
    expect(before.exif).toBeTruthy();
    expect(before.orientation).toBe(6);
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("EXIF", { bytes: jpeg, name: "exif.jpeg" }));
    expect(r.ok).toBe(true);
    const row = await t.ctx.db
      .selectFrom("testimonials")
      .selectAll()
      .where("id", "=", r.ok ? r.value.id : "")
      .executeTakeFirstOrThrow();
    const stored = fs.readFileSync(path.join(testimonialsRoot(t.ctx), row.photo_path!));
    const after = await sharp(stored).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // Rotated by the orientation: 40 × 30 stored as 30 × 40.
    expect([after.width, after.height]).toEqual([30, 40]);
    expect(stored.includes(Buffer.from("Secret Author"))).toBe(false);
  });

  it("accepts WebP", async () => {
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("WebP", { bytes: await photo("webp"), name: "w.webp" }));
    expect(r.ok && r.value.photo).toBe(true);
  });

  it("refuses a visitor", async () => {
    const s = { ...scopeFor(t.ctx, researcher), userId: null, session: null };
    expect(await submitTestimonial(s, body("x"))).toMatchObject({ ok: false, error: "sign-in-required" });
  });
});

describe("staff review", () => {
  it("lists, shows, approves and rejects (audited); a researcher may not", async () => {
    const r = await submitTestimonial(scopeFor(t.ctx, researcher), body("Review me", { bytes: await photo("png"), name: "r.png" }));
    const id = r.ok ? r.value.id : "";
    const list = await listTestimonials(staffScope(), "submitted");
    expect(list.ok && list.value.some((x) => x.id === id)).toBe(true);
    expect(await listTestimonials(scopeFor(t.ctx, researcher))).toMatchObject({ ok: false, error: "not-allowed" });
    expect(await testimonialPhoto(scopeFor(t.ctx, researcher), id)).toMatchObject({ ok: false, error: "not-allowed" });
    const img = await testimonialPhoto(staffScope(), id);
    expect(img.ok && img.value.type).toBe("image/png");
    expect(await reviewTestimonial(scopeFor(t.ctx, researcher), id, "approve")).toMatchObject({ ok: false, error: "not-allowed" });
    expect(await reviewTestimonial(staffScope(), id, "approve")).toEqual({ ok: true, value: { id, status: "approved" } });
    const one = await staffTestimonial(staffScope(), id);
    expect(one.ok && one.value).toMatchObject({ status: "approved", reviewedBy: staff.email });
    expect(await reviewTestimonial(staffScope(), id, "reject")).toMatchObject({ ok: true, value: { status: "rejected" } });
    const audits = await t.ctx.db.selectFrom("audit_log").select("action").where("target_id", "=", id).orderBy("id").execute();
    expect(audits.map((a) => a.action)).toEqual(["testimonial.approve", "testimonial.reject"]);
    expect(await reviewTestimonial(staffScope(), "00000000-0000-0000-0000-000000000000", "approve")).toMatchObject({
      ok: false,
      error: "not-found",
    });
    expect(await staffTestimonial(staffScope(), "not-a-uuid")).toMatchObject({ ok: false, error: "not-found" });
  });
});
