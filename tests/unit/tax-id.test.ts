// Brazilian tax identifiers (PAYMENTS.md "Brazil"): real CPFs and CNPJs, the alphanumeric CNPJ of July 2026
// (Receita Federal's own example), and the ways a number is wrong.
import { describe, expect, it } from "vitest";
import { isValidCnpj, isValidCpf, normalizeTaxNumber, parseTaxId } from "#common/payments/tax-id";

describe("CPF", () => {
  it.each(["529.982.247-25", "111.444.777-35", "123.456.789-09", "93541134780"])("accepts %s", (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ["a wrong first check digit", "529.982.247-15"],
    ["a wrong second check digit", "529.982.247-24"],
    ["two digits swapped", "259.982.247-25"],
    ["all-equal digits (their check digits add up)", "111.111.111-11"],
    ["zeros", "000.000.000-00"],
    ["ten digits", "52998224725".slice(1)],
    ["twelve digits", "529982247250"],
    ["a letter", "529.982.247-2A"],
    ["nothing", ""],
  ])("refuses %s", (_why, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });
});

describe("CNPJ", () => {
  it.each([
    "11.222.333/0001-81",
    "11.444.777/0001-61",
    // Banco do Brasil and Petrobras: real, registered numbers.
    "00.000.000/0001-91",
    "33.000.167/0001-01",
    // The alphanumeric CNPJ (from July 2026): letters count as their character code minus 48.
    "12.ABC.345/01DE-35",
    "12abc34501de35",
  ])("accepts %s", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ["a wrong check digit", "11.222.333/0001-82"],
    ["an alphanumeric one with a wrong check digit", "12.ABC.345/01DE-36"],
    ["a changed letter", "12.ABD.345/01DE-35"],
    ["a letter as a check digit", "12.ABC.345/01DE-3A"],
    ["all-equal digits", "11.111.111/1111-11"],
    ["zeros", "00.000.000/0000-00"],
    ["thirteen characters", "1122233300018"],
    ["a CPF", "529.982.247-25"],
  ])("refuses %s", (_why, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });
});

describe("parseTaxId", () => {
  it("normalises the number and checks it by its type", () => {
    expect(normalizeTaxNumber(" 12.abc.345/01de-35 ")).toBe("12ABC34501DE35");
    expect(parseTaxId("CPF", "529.982.247-25")).toEqual({ type: "CPF", number: "52998224725" });
    expect(parseTaxId("CNPJ", "12.ABC.345/01DE-35")).toEqual({ type: "CNPJ", number: "12ABC34501DE35" });
    // A valid CPF is not a CNPJ, nor the other way round; an unknown type is nothing.
    expect(parseTaxId("CNPJ", "529.982.247-25")).toBeNull();
    expect(parseTaxId("CPF", "11.222.333/0001-81")).toBeNull();
    expect(parseTaxId("RG", "529.982.247-25")).toBeNull();
  });
});
