// The part of fontkit (pdfkit's font engine, no bundled types) that server/pdf uses.
declare module "fontkit" {
  export interface Font {
    postscriptName: string;
    numGlyphs: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font;
}
