// A stream that opens its object only when first read: a zip of fifty deliverables holds one open download at a
// time, and a synchronous `stream()` can hand out an object whose opening (a GetObject) is asynchronous.
import { Readable } from "node:stream";

let openLazyStreams = 0;
/** Objects being opened or read now (tests check that an aborted zip leaves none). */
export const lazyStreamStats = () => ({ open: openLazyStreams });

export class LazyReadable extends Readable {
  private inner: Readable | null = null;
  private opening = false;
  private counted = false;
  constructor(private readonly open: () => Promise<Readable>) {
    super({ highWaterMark: 64 * 1024 });
  }
  /** Counted from the first read until the object is read to its end, fails or is given up. */
  private release(): void {
    if (!this.counted) return;
    this.counted = false;
    openLazyStreams--;
  }
  override _read(): void {
    if (this.inner) {
      this.inner.resume();
      return;
    }
    if (this.opening) return;
    this.opening = true;
    this.counted = true;
    openLazyStreams++;
    this.open().then(
      (inner) => {
        if (this.destroyed) {
          inner.destroy();
          return;
        }
        this.inner = inner;
        inner.once("close", () => this.release());
        inner.on("data", (chunk: Buffer) => {
          if (!this.push(chunk)) inner.pause();
        });
        inner.on("end", () => {
          this.release();
          this.push(null);
        });
        inner.on("error", (error) => {
          this.release();
          this.destroy(error);
        });
      },
      (error: Error) => {
        this.release();
        this.destroy(error);
      },
    );
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    // Given up before or while its object opened: no longer counted (an inner stream's own close may come later).
    if (!this.inner) this.release();
    callback(error);
  }
}
