// React 18's streaming renderer (react-dom/server, renderToPipeableStream) encodes text into 2,048-byte views.
// When a multi-byte character does not fit in what is left of a view, it writes the WHOLE view, the unused
// zero bytes at its end included, and starts the next one (react#31134, fixed in React 19). A Chinese,
// Japanese or Portuguese page then carries NUL bytes wherever its text crosses a boundary, shown as "日�期".
// This stream gives each such chunk back without its padding. Legitimate HTML never ends a chunk with NUL
// (the portal refuses NUL in every input), so only the padding is ever removed; other chunks pass untouched.
import { Transform, type TransformCallback } from "node:stream";

const VIEW_SIZE = 2048;

/** The chunk without the zero bytes React's renderer left at the end of a full view. */
export function trimViewPadding(chunk: Uint8Array): Uint8Array {
  if (chunk.length !== VIEW_SIZE || chunk[VIEW_SIZE - 1] !== 0) return chunk;
  let end = VIEW_SIZE - 1;
  while (end > 0 && chunk[end - 1] === 0) end--;
  return chunk.subarray(0, end);
}

/**
 * A pass-through for renderToPipeableStream's output that drops that padding, and hands on what the renderer wrote
 * in one turn of the event loop as ONE chunk: React writes the shell as a run of 2 KB views within one turn, and each
 * chunk used to become a socket write of its own — about 60 `writev` calls for a 120 KB page, a fifth of the CPU of
 * the heaviest pages (ADR 081). A suspended part written later still goes out in the turn it is written.
 */
export function renderOutput(): Transform {
  let batch: Uint8Array[] = [];
  let scheduled = false;
  const out: Transform = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      batch.push(trimViewPadding(chunk));
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushBatch);
      }
      done();
    },
    flush(done: TransformCallback) {
      flushBatch();
      done();
    },
  });
  function flushBatch() {
    scheduled = false;
    if (batch.length === 0) return;
    const chunks = batch;
    batch = [];
    out.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }
  return out;
}
