/**
 * The engine side of a remote engine root: asks the SSH side (tools/ssh/remote_engine.ts) for the
 * files, root and variables of an alias's host, turns its SshErrors into the engine's errors
 * (file-level kinds become {@link EngineFsError}, connection-level ones an
 * {@link EngineInputError} with the SSH kind and its exact words, e.g. "master_closed") and checks
 * the root. engine.ts builds the {@link Engine} from what this returns.
 *
 * @module
 */
import { lazy } from "../../core/lazy.ts";
import type { EnvReader } from "../../core/env.ts";
import { SshError } from "../../ssh/errors.ts";
import type { ToolContext } from "../types.ts";
import type { RemoteFiles } from "../ssh/remote_engine.ts";
import { EngineInputError } from "./errors.ts";
import { type EngineFs, EngineFsError } from "./engine_fs.ts";

/** An SshError as the seam's error (file-level kinds) or as a tool input error (connection-level). */
function mapError(path: string, err: unknown): unknown {
  if (!(err instanceof SshError)) return err;
  switch (err.kind) {
    case "not_found":
    case "permission_denied":
    case "is_directory":
      return new EngineFsError(err.kind, err.message, path, err.extra);
    case "partial_transfer":
    case "io_error":
      return new EngineFsError("io_error", err.message, path, err.extra);
    default:
      return new EngineInputError(err.kind, err.message, err.extra);
  }
}

/** The remote files as the engine seam: the same calls, with the engine's errors. */
function engineFs(files: RemoteFiles): EngineFs {
  const at = <T>(path: string, p: Promise<T>): Promise<T> =>
    p.catch((err) => Promise.reject(mapError(path, err)));
  return {
    label: files.label,
    join: (...parts) => files.join(...parts),
    basename: (path) => files.basename(path),
    readText: (path) => at(path, files.readText(path)),
    readBytes: (path) => at(path, files.readBytes(path)),
    readRange: (path, offset, length) => at(path, files.readRange(path, offset, length)),
    stat: (path) => at(path, files.stat(path)),
    list: (dir) => at(dir, files.list(dir)),
    exists: (path) => at(path, files.exists(path)),
    localFile: (path) => at(path, files.localFile(path)),
  };
}

/**
 * The engine root of an alias: its file seam, its root (`hciroot`, else the alias's pin, else the
 * host's login `$HCIROOT`) and the host's HCIROOT and HCISITE. Throws EngineInputError (with the SSH
 * kind for connection failures, "no_engine_root" when no absolute root is known).
 */
export async function remoteRoot(
  ctx: ToolContext,
  alias: string,
  hciroot: string | undefined,
): Promise<{ fs: EngineFs; root: string; env: EnvReader }> {
  const { remoteEngineRoot } = await lazy<typeof import("../ssh/remote_engine.ts")>(
    import.meta.url,
    "../ssh/remote_engine.ts",
  );
  // Opening the alias and asking its login shell fail only at the connection level.
  const found = await remoteEngineRoot(ctx, alias, hciroot).catch((err) =>
    Promise.reject(err instanceof SshError ? new EngineInputError(err.kind, err.message, err.extra) : err)
  );
  if (!found.root) {
    throw new EngineInputError(
      "no_engine_root",
      `no engine root on ${alias}: its login shell sets no HCIROOT; pass --hciroot <path> or pin one with ` +
        `/ssh-set-hciroot ${alias} <path>`,
      { alias },
    );
  }
  if (!found.root.startsWith("/")) {
    throw new EngineInputError(
      "no_engine_root",
      `the engine root on ${alias} must be an absolute path (got ${found.root})`,
      { alias },
    );
  }
  const vars: Record<string, string | undefined> = found.vars;
  return { fs: engineFs(found.files), root: found.root, env: (name) => vars[name] };
}
