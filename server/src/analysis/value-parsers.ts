// nginx's value parsers, ported from src/core/ngx_parse.c and ngx_string.c as 1.22.1 to 1.31 have them: what a
// ngx_conf_set_*_slot accepts for a size, an offset, a time or a number. Each answers only whether nginx would parse
// the word (overflow included), not the value, so a check can say "invalid value" exactly where nginx does.

/** Largest ngx_int_t / off_t / size_t on the 64-bit builds nginx is packaged as. */
const MAX_INT = 2n ** 63n - 1n;

/** ngx_atoi / ngx_atosz / ngx_atoof: one or more decimal digits, nothing else, no overflow. */
export function parsesAsNumber(text: string): boolean {
  if (text.length === 0 || text.length > 19) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return BigInt(text) <= MAX_INT;
}

/** ngx_parse_size: a number with an optional k/K/m/M (no g: that is ngx_parse_offset's). */
export function parsesAsSize(text: string): boolean {
  return parsesScaled(text, { k: 10n, m: 20n });
}

/** ngx_parse_offset: a number with an optional k/K/m/M/g/G. */
export function parsesAsOffset(text: string): boolean {
  return parsesScaled(text, { k: 10n, m: 20n, g: 30n });
}

function parsesScaled(text: string, units: Record<string, bigint>): boolean {
  if (text.length === 0) return false;
  const shift = units[text[text.length - 1]!.toLowerCase()];
  const digits = shift === undefined ? text : text.slice(0, -1);
  if (!parsesAsNumber(digits)) return false;
  return BigInt(digits) <= MAX_INT >> (shift ?? 0n);
}

// ngx_parse_time's steps: each unit must come after the larger ones; msec mode starts past years (no `y`, no `M`).
const STEP = { start: 0, year: 1, month: 2, week: 3, day: 4, hour: 5, min: 6, sec: 7, msec: 8, last: 9 } as const;
const UNIT: Record<string, { step: number; seconds: bigint }> = {
  y: { step: STEP.year, seconds: 31_536_000n },
  M: { step: STEP.month, seconds: 2_592_000n },
  w: { step: STEP.week, seconds: 604_800n },
  d: { step: STEP.day, seconds: 86_400n },
  h: { step: STEP.hour, seconds: 3_600n },
  m: { step: STEP.min, seconds: 60n },
  s: { step: STEP.sec, seconds: 1n },
};

/**
 * ngx_parse_time(line, is_sec): `1h 30m`, `500ms`, `10` (a bare number is seconds in both modes). `seconds` is
 * ngx_conf_set_sec_slot's mode, where `ms` is refused; the msec mode (ngx_conf_set_msec_slot) refuses `y` and `M`.
 */
export function parsesAsTime(text: string, seconds: boolean): boolean {
  let step: number = seconds ? STEP.start : STEP.month;
  let value = 0n;
  let total = 0n;
  let valid = false;
  let i = 0;
  const scaleMs = seconds ? 1n : 1000n;
  while (i < text.length) {
    const c = text[i]!;
    if (c >= '0' && c <= '9') {
      value = value * 10n + BigInt(c.charCodeAt(0) - 48);
      if (value > MAX_INT) return false;
      valid = true;
      i++;
      continue;
    }
    i++;
    let scale: bigint;
    let next: number;
    if (c === 'm' && text[i] === 's') {
      if (seconds || step >= STEP.msec) return false;
      i++;
      next = STEP.msec;
      scale = 1n;
    } else if (c === ' ') {
      if (step >= STEP.sec) return false;
      next = STEP.last;
      scale = scaleMs;
    } else {
      const unit = UNIT[c];
      if (!unit) return false;
      // `y` only opens a line (`step > start`); the others refuse a step at or past their own.
      if (c === 'y' ? step > STEP.start : step >= unit.step) return false;
      next = unit.step;
      scale = unit.seconds * scaleMs;
    }
    step = next;
    value *= scale;
    total += value;
    if (value > MAX_INT || total > MAX_INT) return false;
    value = 0n;
    while (text[i] === ' ') i++;
  }
  if (!valid) return false;
  return total + value * scaleMs <= MAX_INT;
}
