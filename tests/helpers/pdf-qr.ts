// The QR code a PDF carries as its first image on page 1 (the referral flyer, ADR 076), decoded with jsqr: used by
// the db test of the flyer and by the browser journey that downloads it.
import jsQR from "jsqr";
import { extractImages, getDocumentProxy } from "unpdf";

// pdf.js's operator list (fonts) uses ArrayBuffer.prototype.transferToFixedLength (Node 21+): a copy where missing.
const proto = ArrayBuffer.prototype as unknown as { transferToFixedLength?: (n?: number) => ArrayBuffer };
if (!proto.transferToFixedLength)
  Object.defineProperty(ArrayBuffer.prototype, "transferToFixedLength", {
    value(this: ArrayBuffer, n?: number) {
      const copy = new ArrayBuffer(n ?? this.byteLength);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(n ?? this.byteLength, this.byteLength)));
      return copy;
    },
  });

/** The first image of page 1 as RGBA, decoded as a QR code. */
export async function qrOf(pdf: Buffer): Promise<string | null> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const images = await extractImages(doc, 1);
  if (!images.length) return null;
  const img = images[0];
  const rgba = new Uint8ClampedArray(img.width * img.height * 4);
  for (let i = 0; i < img.width * img.height; i++) {
    const c = img.channels;
    const r = img.data[i * c];
    const g = c >= 3 ? img.data[i * c + 1] : r;
    const b = c >= 3 ? img.data[i * c + 2] : r;
    rgba.set([r, g, b, 255], i * 4);
  }
  return jsQR(rgba, img.width, img.height)?.data ?? null;
}
