/**
 * The program's version, embedded so a compiled binary needs no file. A test keeps it equal to the
 * VERSION file, which the update origin serves.
 */
export const VERSION = "0.15.0";
