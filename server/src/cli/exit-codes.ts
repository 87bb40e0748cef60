export const EXIT_CLEAN = 0;
/** At least one error or warning finding (info findings never fail a run). */
export const EXIT_FINDINGS = 1;
/** Bad usage or input that could not be checked; wins over EXIT_FINDINGS so CI never mistakes it for a lint result. */
export const EXIT_FAILURE = 2;

export type ExitCode = typeof EXIT_CLEAN | typeof EXIT_FINDINGS | typeof EXIT_FAILURE;
