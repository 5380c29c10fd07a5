/**
 * Finding a thread (or destination, or process) in one site's NetConfig by name. Kept for the tool
 * bodies that look in one known NetConfig; the implementation, and the resolution of a thread as
 * an operator or the model names it (`site thread`, `thread.site`, `thread` alone), is
 * ../thread_ref.ts.
 *
 * @module
 */
import type { NcEntry, NetConfig } from "../netconfig/mod.ts";
import { requireEntryIn } from "../thread_ref.ts";

/** A protocol (thread) of the site; throws `unknown_thread` naming the closest names. */
export function requireThread(nc: NetConfig, name: string, site: string): NcEntry {
  return requireEntryIn(nc, name, site, "thread");
}

/** A protocol, destination or process of the site. */
export function requireEntry(nc: NetConfig, name: string, site: string): NcEntry {
  return requireEntryIn(nc, name, site, "entry");
}
