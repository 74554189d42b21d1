// How values are stored, the same on SQLite and PostgreSQL.

/** Booleans are stored as 0/1 integers so one set of migrations fits SQLite and PostgreSQL. */
export type Flag = number;
/** Dates are ISO-8601 strings: portable, and they sort as text. */
export type Iso = string;
/** JSON documents are stored as text. */
export type Json = string;
