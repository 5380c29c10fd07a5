/** nc_msgs: messages in SMAT archives (.smatdb via SQLite, .idx/.msg), searched and listed newest first. */
import type { ToolDef } from "../types.ts";
import { aliasParam, HCIROOT_PARAM, siteParam, THREAD_PARAM, TZ_PARAM } from "./common_tool.ts";

export const ncMsgsTool = {
  name: "nc_msgs",
  summary: "List or search SMAT messages (.smatdb, .idx/.msg) by thread, time, text or HL7 field",
  description: "Read saved messages from SMAT archives, newest first: SQLite .smatdb files (table " +
    "smat_msgs) and the older .idx/.msg pairs. Choose them by site and thread (its SAVEMSGS files in " +
    "exec/processes/<process>/; --direction in|out|both; --history adds SmatHistory copies), by site " +
    "alone (every archive of the site), by neither (every archive of every site, a SITE column), or by --file. Filter by time (--since, --until: a date, a " +
    "date and time in the site's zone (its siteInfo timezone, else the engine host's TZ or clock; --tz " +
    "to name one) unless a zone is given, or an age such as 90m, 36h, 7d; times are shown in that zone " +
    "with its offset, --utc for UTC; the footer gives the window in that zone and in UTC), by text (case-sensitive unless --ignore-case) and by " +
    "HL7 field (--hl7 PID.3.1=12345, != or ~ for contains; repeat for AND). --output summary (one " +
    "line per message: time, MID, file, context, source, destination, MSH-9, MSH-10, size), raw (the " +
    "messages, one segment per line) or json. An encrypted .smatdb (SQLCipher) is recognised and " +
    "reported in one line, not read.",
  params: [
    { ...siteParam(), description: "site name (default: every site's archives, with a SITE column)" },
    { ...THREAD_PARAM, description: "the thread whose archives to read (default every archive of the site)" },
    {
      name: "file",
      type: "string",
      description: "read this archive (.smatdb, .idx or .msg)",
      metavar: "PATH",
    },
    {
      name: "direction",
      type: "string",
      description: "which of the thread's archives",
      enum: ["both", "in", "out"],
      default: "both",
    },
    {
      name: "history",
      type: "boolean",
      description: "also read the SmatHistory copies (read anyway when --since is given and the " +
        "window may reach them); a message found in several copies is one message",
      default: false,
    },
    {
      name: "since",
      type: "string",
      description: "messages at or after this time: 2024-11-20, 2024-11-20T08:05 (in the site's zone " +
        "unless one is given), or an age such as 90m, 36h, 7d",
      metavar: "TIME",
    },
    {
      name: "until",
      type: "string",
      description:
        "messages at or before this time (as --since; a bare date means the end of that day, so since and until 2024-11-20 is that whole day)",
      metavar: "TIME",
    },
    {
      name: "utc",
      type: "boolean",
      description: "show times in UTC rather than the site's zone",
      default: false,
    },
    { name: "text", type: "string", description: "messages containing this text" },
    { name: "ignore_case", type: "boolean", description: "match --text in any case", default: false },
    {
      name: "hl7",
      type: "string[]",
      description: "HL7 condition PATH=value, PATH!=value or PATH~text; a value list A|B|C means any of " +
        "them; a path of a repeating segment (OBX.8) holds when any occurrence matches (!= when none " +
        "does); = on an identifier also matches it with or without leading zeros or with an " +
        "assigning-authority suffix (a footer note counts those)",
      metavar: "COND",
    },
    {
      name: "count",
      type: "boolean",
      description: "only the number of matching messages (no rows)",
      default: false,
    },
    {
      name: "group_by",
      type: "string",
      description: "counts of matching messages per value of an HL7 path (MSH.9.2, OBX.8; a message " +
        "counts once per distinct value) or per thread, file, source, dest, context, hour or day; each " +
        "value with its first and last message time",
      metavar: "KEY",
    },
    {
      name: "fields",
      type: "string[]",
      description: "show these HL7 paths of each matching message as TSV (TIME, MID, one column per " +
        "path), one row per occurrence of a repeating segment (OBX.3 and OBX.5: one row per OBX); " +
        "with an hl7 = or ~ condition on that segment, only the occurrences it matched (OBX.8=H|L: " +
        "the flagged OBX rows, not every OBX of the message)",
      metavar: "PATH",
    },
    {
      name: "join_replies",
      type: "boolean",
      description: "join each matching message to its reply (an ACK's MSA-2 = the message's MSH-10; " +
        "text and hl7 conditions choose the originals, not the replies), " +
        "from every archive read: original and reply times, MSH-9, MSH-10, MSA-1, MSA-3, seconds between; " +
        "the footer gives the tally by MSA-1 and the slowest reply; with count, no rows",
      default: false,
    },
    {
      name: "reply_codes",
      type: "string",
      description: "with join_replies: only messages whose reply's MSA-1 is one of these (AE|AR), " +
        "`none` for no reply: 'which messages were rejected' without reading the accepted ones",
      metavar: "CODES",
    },
    {
      name: "slower_than",
      type: "integer",
      description: "with join_replies: only messages whose reply came more than N seconds after them, " +
        "or never came (how many waited over N s: add count)",
      min: 0,
      metavar: "SECONDS",
    },
    {
      name: "limit",
      type: "integer",
      description: "most messages shown",
      default: 20,
      min: 1,
      max: 1000,
      metavar: "N",
    },
    {
      name: "output",
      type: "string",
      description: "what to show",
      enum: ["summary", "raw", "json"],
      default: "summary",
    },
    TZ_PARAM,
    HCIROOT_PARAM,
    aliasParam(),
  ],
  examples: [
    "adt adt_in",
    "adt adt_in --hl7 MSH.9.2=A08 --limit 5 --output raw",
    "lab --since 2024-11-20T08:30 --text ORU",
    "--file /tmp/pulled/adt_in.smatdb --limit 100",
    "adt adt_in --since 7d --group-by MSH.9.2",
    "lab lab_out --hl7 OBX.8=H|HH|L|LL --fields PID.3.1 OBX.3.2 OBX.5 OBX.8",
    "adt adt_to_hub --join-replies --since 1d",
    "adt adt_to_hub --join-replies --slower-than 3 --count",
    "adt adt_to_hub --join-replies --reply-codes AE|AR",
  ],
  exampleInput: { site: "adt", thread: "adt_in", hl7: ["MSH.9.2=A08"], limit: 5 },
} as const satisfies ToolDef;
