// Public holidays per localisation (deadlines skip them; docs/decisions/005).
// US: federal holidays with their observed dates. Brazil: national holidays plus
// Carnival (a nationwide optional day off that publishers and offices observe).
// China: the State Council's 2026 schedule; for 2027 the statutory days (the
// official schedule, with its weekend make-up working days, is published late in
// the year before: staff add it then).

export interface HolidaySeed {
  localization: "US" | "CN" | "BR";
  date: string;
  name: string;
}

const us: [string, string][] = [
  ["2026-01-01", "New Year's Day"],
  ["2026-01-19", "Martin Luther King Jr. Day"],
  ["2026-02-16", "Washington's Birthday"],
  ["2026-05-25", "Memorial Day"],
  ["2026-06-19", "Juneteenth National Independence Day"],
  ["2026-07-03", "Independence Day (observed)"],
  ["2026-09-07", "Labor Day"],
  ["2026-10-12", "Columbus Day"],
  ["2026-11-11", "Veterans Day"],
  ["2026-11-26", "Thanksgiving Day"],
  ["2026-12-25", "Christmas Day"],
  ["2027-01-01", "New Year's Day"],
  ["2027-01-18", "Martin Luther King Jr. Day"],
  ["2027-02-15", "Washington's Birthday"],
  ["2027-05-31", "Memorial Day"],
  ["2027-06-18", "Juneteenth National Independence Day (observed)"],
  ["2027-07-05", "Independence Day (observed)"],
  ["2027-09-06", "Labor Day"],
  ["2027-10-11", "Columbus Day"],
  ["2027-11-11", "Veterans Day"],
  ["2027-11-25", "Thanksgiving Day"],
  ["2027-12-24", "Christmas Day (observed)"],
  ["2027-12-31", "New Year's Day 2028 (observed)"],
];

const br: [string, string][] = [
  ["2026-01-01", "Confraternização Universal"],
  ["2026-02-16", "Carnaval"],
  ["2026-02-17", "Carnaval"],
  ["2026-04-03", "Sexta-feira Santa"],
  ["2026-04-21", "Tiradentes"],
  ["2026-05-01", "Dia do Trabalho"],
  ["2026-06-04", "Corpus Christi"],
  ["2026-09-07", "Independência do Brasil"],
  ["2026-10-12", "Nossa Senhora Aparecida"],
  ["2026-11-02", "Finados"],
  ["2026-11-15", "Proclamação da República"],
  ["2026-11-20", "Dia Nacional de Zumbi e da Consciência Negra"],
  ["2026-12-25", "Natal"],
  ["2027-01-01", "Confraternização Universal"],
  ["2027-02-08", "Carnaval"],
  ["2027-02-09", "Carnaval"],
  ["2027-03-26", "Sexta-feira Santa"],
  ["2027-04-21", "Tiradentes"],
  ["2027-05-01", "Dia do Trabalho"],
  ["2027-05-27", "Corpus Christi"],
  ["2027-09-07", "Independência do Brasil"],
  ["2027-10-12", "Nossa Senhora Aparecida"],
  ["2027-11-02", "Finados"],
  ["2027-11-15", "Proclamação da República"],
  ["2027-11-20", "Dia Nacional de Zumbi e da Consciência Negra"],
  ["2027-12-25", "Natal"],
];

/** Consecutive days from `first` to `last` (inclusive) with one name. */
function range(first: string, last: string, name: string): [string, string][] {
  const out: [string, string][] = [];
  for (let d = new Date(`${first}T00:00:00Z`); d <= new Date(`${last}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
    out.push([d.toISOString().slice(0, 10), name]);
  }
  return out;
}

const cn: [string, string][] = [
  ...range("2026-01-01", "2026-01-03", "元旦 New Year's Day"),
  ...range("2026-02-15", "2026-02-23", "春节 Spring Festival"),
  ...range("2026-04-04", "2026-04-06", "清明节 Qingming Festival"),
  ...range("2026-05-01", "2026-05-05", "劳动节 Labour Day"),
  ...range("2026-06-19", "2026-06-21", "端午节 Dragon Boat Festival"),
  ...range("2026-09-25", "2026-09-27", "中秋节 Mid-Autumn Festival"),
  ...range("2026-10-01", "2026-10-07", "国庆节 National Day"),
  ["2027-01-01", "元旦 New Year's Day"],
  ...range("2027-02-05", "2027-02-08", "春节 Spring Festival"),
  ["2027-04-05", "清明节 Qingming Festival"],
  ...range("2027-05-01", "2027-05-02", "劳动节 Labour Day"),
  ["2027-06-09", "端午节 Dragon Boat Festival"],
  ["2027-09-15", "中秋节 Mid-Autumn Festival"],
  ...range("2027-10-01", "2027-10-07", "国庆节 National Day"),
];

export const HOLIDAYS: HolidaySeed[] = [
  ...us.map(([date, name]) => ({ localization: "US" as const, date, name })),
  ...cn.map(([date, name]) => ({ localization: "CN" as const, date, name })),
  ...br.map(([date, name]) => ({ localization: "BR" as const, date, name })),
];
