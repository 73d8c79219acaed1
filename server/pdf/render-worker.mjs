// A worker thread of the PDF render pool (pool.ts, ADR 028): loads the renderers once (fonts included),
// then renders one document per message, off the web process's event loop.
// Plain JavaScript so that Node starts it the same way under `npm start` (tsx), `npm run dev` and vitest:
// it registers tsx's CommonJS hooks in this thread (Node 20's module.register hooks do not reach worker
// threads) and requires the TypeScript renderers with them, tsconfig "paths" included.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/cjs/api";

register();
const require = createRequire(import.meta.url);
/** @type {{ PDF_RENDERERS: Record<string, (data: unknown) => Promise<Uint8Array> | Uint8Array>, warmUp?: () => void }} */
const renderers = require(workerData?.renderers ?? "./renderers.ts");
renderers.warmUp?.();

/** Structured clone hands a Buffer over as a plain Uint8Array: give renderers their Buffers back (no copy). */
function revive(value) {
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
  return value;
}

parentPort.on("message", async (/** @type {{ id: number, kind: string, data: unknown }} */ { id, kind, data }) => {
  try {
    const render = Object.hasOwn(renderers.PDF_RENDERERS, kind) ? renderers.PDF_RENDERERS[kind] : undefined;
    if (!render) throw new Error(`no PDF renderer for "${kind}"`);
    const out = await render(revive(data));
    // The file travels back without a copy: its own ArrayBuffer is handed over.
    const own =
      out.byteOffset === 0 && out.byteLength === out.buffer.byteLength && out.buffer instanceof ArrayBuffer ? out : new Uint8Array(out);
    parentPort.postMessage({ id, ok: true, pdf: own }, [own.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
