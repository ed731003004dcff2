/*
 * EU VAT data, as of 2026-01-01: the standard rate of each of the 27 member states, and the format of their VAT
 * numbers as VIES describes them (the number's prefix, then its national part). Greece's prefix is EL, not GR.
 * Update `EU_VAT_AS_OF` with the rates when a member state changes its standard rate.
 */

export const EU_VAT_AS_OF = '2026-01-01';

export interface MemberStateVat {
  /** Standard VAT rate, percent. */
  rate: number;
  /** The prefix of its VAT numbers (the country code, but EL for Greece). */
  prefix: string;
  /** The national part of a VAT number, after the prefix. */
  pattern: RegExp;
}

export const EU_VAT: Readonly<Record<string, MemberStateVat>> = Object.freeze({
  AT: { rate: 20, prefix: 'AT', pattern: /^U\d{8}$/ },
  BE: { rate: 21, prefix: 'BE', pattern: /^[01]\d{9}$/ },
  BG: { rate: 20, prefix: 'BG', pattern: /^\d{9,10}$/ },
  CY: { rate: 19, prefix: 'CY', pattern: /^\d{8}[A-Z]$/ },
  CZ: { rate: 21, prefix: 'CZ', pattern: /^\d{8,10}$/ },
  DE: { rate: 19, prefix: 'DE', pattern: /^\d{9}$/ },
  DK: { rate: 25, prefix: 'DK', pattern: /^\d{8}$/ },
  EE: { rate: 24, prefix: 'EE', pattern: /^\d{9}$/ },
  ES: { rate: 21, prefix: 'ES', pattern: /^[0-9A-Z]\d{7}[0-9A-Z]$/ },
  FI: { rate: 25.5, prefix: 'FI', pattern: /^\d{8}$/ },
  FR: { rate: 20, prefix: 'FR', pattern: /^[0-9A-HJ-NP-Z]{2}\d{9}$/ },
  GR: { rate: 24, prefix: 'EL', pattern: /^\d{9}$/ },
  HR: { rate: 25, prefix: 'HR', pattern: /^\d{11}$/ },
  HU: { rate: 27, prefix: 'HU', pattern: /^\d{8}$/ },
  IE: { rate: 23, prefix: 'IE', pattern: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { rate: 22, prefix: 'IT', pattern: /^\d{11}$/ },
  LT: { rate: 21, prefix: 'LT', pattern: /^(\d{9}|\d{12})$/ },
  LU: { rate: 17, prefix: 'LU', pattern: /^\d{8}$/ },
  LV: { rate: 21, prefix: 'LV', pattern: /^\d{11}$/ },
  MT: { rate: 18, prefix: 'MT', pattern: /^\d{8}$/ },
  NL: { rate: 21, prefix: 'NL', pattern: /^\d{9}B\d{2}$/ },
  PL: { rate: 23, prefix: 'PL', pattern: /^\d{10}$/ },
  PT: { rate: 23, prefix: 'PT', pattern: /^\d{9}$/ },
  RO: { rate: 21, prefix: 'RO', pattern: /^[1-9]\d{1,9}$/ },
  SE: { rate: 25, prefix: 'SE', pattern: /^\d{12}$/ },
  SI: { rate: 22, prefix: 'SI', pattern: /^\d{8}$/ },
  SK: { rate: 23, prefix: 'SK', pattern: /^\d{10}$/ },
});

/** ISO 3166-1 alpha-2 codes in use (and XK, Kosovo): a country code outside them is refused. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
   CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO
   FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE
   JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO
   MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
   PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
   TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW`
    .split(/\s+/)
    .filter(Boolean),
);
