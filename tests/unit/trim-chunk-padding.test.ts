// React 18's padded render chunks (app/lib/trim-chunk-padding.server.ts): only the zero padding of a full
// 2,048-byte view is removed; every other chunk is passed on as it came.
import { describe, expect, it } from "vitest";
import { trimViewPadding } from "../../app/lib/trim-chunk-padding.server";

describe("trimViewPadding", () => {
  it("drops the zero bytes a full view was padded with, keeping every written byte", () => {
    const text = new TextEncoder().encode("日".repeat(682)); // 2,046 bytes: the next 3-byte character did not fit
    const view = new Uint8Array(2048);
    view.set(text);
    const trimmed = trimViewPadding(view);
    expect(trimmed.length).toBe(2046);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(trimmed)).toBe("日".repeat(682));
  });

  it("leaves full views without padding, and chunks of any other size, untouched", () => {
    const full = new Uint8Array(2048).fill(0x61);
    expect(trimViewPadding(full)).toBe(full);
    const short = new Uint8Array([0x61, 0, 0]);
    expect(trimViewPadding(short)).toBe(short);
  });
});
