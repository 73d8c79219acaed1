// Timing of the document bounds (moved out of the unit lane, which holds no clocks: issue 21 §7): a PDF bomb is
// refused in milliseconds, because the bound stops inflating at the limit instead of reading the whole stream.
import { describe, expect, it } from "vitest";
import { ArchiveLimitError, checkPdfBounds } from "../../server/documents/containers";
import { ANALYSIS_LIMITS } from "../../server/documents/analysis";
import { pdfBomb } from "../helpers/fixtures";

describe("checkPdfBounds under a bomb", () => {
  it("refuses a 50 MB content stream within 2 s, by the ratio and by the total", async () => {
    const started = Date.now();
    await expect(checkPdfBounds(pdfBomb(50), ANALYSIS_LIMITS.pdf)).rejects.toThrow(/inflates more than 100×/);
    await expect(checkPdfBounds(pdfBomb(50), { ...ANALYSIS_LIMITS.pdf, maxRatio: 1e9, maxTotalBytes: 8 * 1024 * 1024 })).rejects.toThrow(
      ArchiveLimitError,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
