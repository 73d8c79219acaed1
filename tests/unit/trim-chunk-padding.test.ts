// React 18's padded render chunks (app/lib/trim-chunk-padding.server.ts): only the zero padding of a full
// 2,048-byte view is removed; every other chunk is passed on as it came.
import { describe, expect, it } from "vitest";
import { renderOutput, trimViewPadding } from "../../app/lib/trim-chunk-padding.server";

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

describe("renderOutput", () => {
  it("hands on what was written in one turn as one chunk, a later write as the next, without the padding", async () => {
    const out = renderOutput();
    const received: string[] = [];
    out.on("data", (c: Buffer) => received.push(c.toString("utf8")));
    const ended = new Promise((r) => out.on("end", r));
    const padded = new Uint8Array(2048);
    padded.set(new TextEncoder().encode("日".repeat(682)));
    // The shell: many views in one turn (React writes them in a loop).
    out.write(Buffer.from("<html><body>"));
    out.write(Buffer.from(padded));
    for (let i = 0; i < 50; i++) out.write(Buffer.from(`<p>${i}</p>`));
    await new Promise((r) => setImmediate(r));
    // A suspended part resolved later: its own chunk, in its own turn.
    out.write(Buffer.from("<template>late</template>"));
    await new Promise((r) => setImmediate(r));
    out.end(Buffer.from("</body></html>"));
    await ended;
    expect(received).toHaveLength(3);
    expect(received[0]).toBe("<html><body>" + "日".repeat(682) + Array.from({ length: 50 }, (_, i) => `<p>${i}</p>`).join(""));
    expect(received[1]).toBe("<template>late</template>");
    expect(received[2]).toBe("</body></html>");
    expect(received.join("")).not.toContain("\u0000");
  });
});
