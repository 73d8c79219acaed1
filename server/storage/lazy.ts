// A stream that opens its object only when first read: a zip of fifty deliverables holds one open download at a
// time, and a synchronous `stream()` can hand out an object whose opening (a GetObject) is asynchronous.
import { Readable } from "node:stream";

let openLazyStreams = 0;
/** Inner streams open now (tests check that an aborted zip leaves none). */
export const lazyStreamStats = () => ({ open: openLazyStreams });

export class LazyReadable extends Readable {
  private inner: Readable | null = null;
  private opening = false;
  constructor(private readonly open: () => Promise<Readable>) {
    super({ highWaterMark: 64 * 1024 });
  }
  override _read(): void {
    if (this.inner) {
      this.inner.resume();
      return;
    }
    if (this.opening) return;
    this.opening = true;
    this.open().then(
      (inner) => {
        if (this.destroyed) {
          inner.destroy();
          return;
        }
        this.inner = inner;
        openLazyStreams++;
        let closed = false;
        const done = () => {
          if (closed) return;
          closed = true;
          openLazyStreams--;
        };
        inner.once("close", done);
        inner.on("data", (chunk: Buffer) => {
          if (!this.push(chunk)) inner.pause();
        });
        inner.on("end", () => {
          this.push(null);
          done();
        });
        inner.on("error", (error) => {
          done();
          this.destroy(error);
        });
      },
      (error: Error) => this.destroy(error),
    );
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}
