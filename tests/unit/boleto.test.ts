// Boleto typed line and barcode (app/common/payments/boleto.ts, PAYMENTS.md "Brazil"): the check digits of real
// boletos, the due-date factor across its 2025-02-22 restart, and the ITF bars of the printed barcode.
import { describe, expect, it } from "vitest";
import {
  barcodeToLine,
  boletoBarcode,
  dueDateFactor,
  formatBoletoLine,
  isValidBoletoBarcode,
  isValidBoletoLine,
  itfWidths,
  lineToBarcode,
  mod10,
  mod11,
} from "../../app/common/payments/boleto";

// Real typed lines (Banco do Brasil, Bradesco) as printed on paid boletos.
const REAL_LINES = ["00190000090114971860168524522114675860000102656", "23793381286000782713695000063305975520000370000"];

describe("boleto", () => {
  it("accepts real typed lines: three field digits (mod 10) and the general digit (mod 11)", () => {
    for (const line of REAL_LINES) {
      expect(isValidBoletoLine(line)).toBe(true);
      const barcode = lineToBarcode(line);
      expect(barcode).toHaveLength(44);
      expect(isValidBoletoBarcode(barcode)).toBe(true);
      expect(barcodeToLine(barcode)).toBe(line);
    }
    expect(formatBoletoLine(REAL_LINES[0])).toBe("00190.00009 01149.718601 68524.522114 6 75860000102656");
    expect(isValidBoletoLine(formatBoletoLine(REAL_LINES[0]))).toBe(true);
  });

  it("refuses a line or a barcode with one digit changed", () => {
    const line = REAL_LINES[0];
    for (const at of [3, 9, 15, 20, 28, 32, 40, 46]) {
      const changed = line.slice(0, at) + String((Number(line[at]) + 1) % 10) + line.slice(at + 1);
      expect(isValidBoletoLine(changed), `digit ${at}`).toBe(false);
    }
    const barcode = lineToBarcode(line);
    expect(isValidBoletoBarcode(barcode.slice(0, 20) + ((Number(barcode[20]) + 3) % 10) + barcode.slice(21))).toBe(false);
    expect(isValidBoletoLine(line.slice(1))).toBe(false);
    expect(isValidBoletoLine(line.replace("0", "a"))).toBe(false);
  });

  it("computes modulus 10 and modulus 11 as FEBRABAN does (0, 10, 11 → 1)", () => {
    expect(mod10("001900000")).toBe(9);
    expect(mod10("0114971860")).toBe(1);
    // The general digit of the first real line is 6.
    const b = lineToBarcode(REAL_LINES[0]);
    expect(mod11(b.slice(0, 4) + b.slice(5))).toBe(6);
    // A sum whose remainder is 0 or 1 gives 1, never 0 or 10.
    expect(mod11("0")).toBe(1);
  });

  it("counts the due-date factor from 1997-10-07 and restarts at 1000 on 2025-02-22", () => {
    expect(dueDateFactor("2000-07-03")).toBe(1000);
    expect(dueDateFactor("2025-02-21")).toBe(9999);
    expect(dueDateFactor("2025-02-22")).toBe(1000);
    expect(dueDateFactor("2026-11-27")).toBe(1000 + 643);
    expect(() => dueDateFactor("1999-01-01")).toThrow();
  });

  it("builds a valid barcode and line for an amount and a due date", () => {
    const barcode = boletoBarcode({ bank: "001", dueOn: "2026-11-27", amount: 123456, freeField: "0000001234567890100000018" });
    expect(barcode).toMatch(/^\d{44}$/);
    expect(barcode.slice(0, 4)).toBe("0019");
    expect(barcode.slice(5, 9)).toBe("1643");
    expect(barcode.slice(9, 19)).toBe("0000123456");
    expect(isValidBoletoBarcode(barcode)).toBe(true);
    expect(isValidBoletoLine(barcodeToLine(barcode))).toBe(true);
  });

  it("draws Interleaved 2 of 5: start, five bars and five spaces per pair, stop", () => {
    const widths = itfWidths("12", 3);
    // start nnnn; 1 = wnnnw (bars), 2 = nwnnw (spaces) interleaved; stop wnn
    expect(widths).toEqual([1, 1, 1, 1, 3, 1, 1, 3, 1, 1, 1, 1, 3, 3, 3, 1, 1]);
    const full = itfWidths(lineToBarcode(REAL_LINES[0]));
    expect(full).toHaveLength(4 + 22 * 10 + 3);
    expect(() => itfWidths("123")).toThrow();
  });
});
