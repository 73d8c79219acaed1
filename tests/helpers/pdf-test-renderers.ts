// A renderer table for the PDF pool's tests (tests/unit/pdf-pool.test.ts): loaded inside the pool's
// worker threads in place of server/pdf/renderers.ts, with kinds that misbehave on purpose.
import { threadId } from "node:worker_threads";
import type { PdfRenderers } from "../../server/pdf/renderers";

export const PDF_RENDERERS = {
  /** Says which thread rendered, and what arrived of a Date and a Buffer. */
  whoami: async (data: { at: Date; bytes: Buffer; list: { when: Date }[] }) =>
    Buffer.from(
      JSON.stringify({
        threadId,
        at: data.at instanceof Date ? data.at.toISOString() : null,
        bytes: Buffer.isBuffer(data.bytes) ? data.bytes.toString("hex") : null,
        listAt: data.list.map((x) => (x.when instanceof Date ? x.when.getTime() : null)),
      }),
    ),
  /** Waits without holding the worker's thread. */
  sleep: async (data: { ms: number }) => {
    await new Promise((resolve) => setTimeout(resolve, data.ms));
    return Buffer.from(`slept ${data.ms}`);
  },
  /** Holds the worker's thread (a render stuck in a loop). */
  spin: (data: { ms: number }) => {
    const end = Date.now() + data.ms;
    while (Date.now() < end);
    return Buffer.from("spun");
  },
  /** An error thrown outside the render's promise: the worker dies. */
  crash: () => {
    setImmediate(() => {
      throw new Error("renderer crashed");
    });
    return new Promise<Buffer>(() => {});
  },
  /** A renderer that refuses its data: the render fails, the worker lives on. */
  refuse: async () => {
    throw new Error("bad data");
  },
} satisfies PdfRenderers;
